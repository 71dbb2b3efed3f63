/* nvrtc_cache.c — see nvrtc_cache.h. */
#include "nvrtc_cache.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <nvrtc.h>

#include "core/util.h"

char *nvrtc_cubin_cached(const char *path, const char *cache, const char *src, const char *name,
                         const char *const *opts, int no, size_t *len, char **why,
                         int *compiled)
{
	*compiled = 0;
	*why = NULL;
	if (access(path, R_OK) == 0)
		return read_file(path, len);

	nvrtcProgram prog;
	nvrtcResult r = nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS)
		die("nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
	*compiled = 1;
	r = nvrtcCompileProgram(prog, no, opts);
	if (r != NVRTC_SUCCESS) {
		size_t ls = 0;
		if (nvrtcGetProgramLogSize(prog, &ls) != NVRTC_SUCCESS)
			ls = 0;
		char *lg = xmalloc(ls + 1);
		lg[0] = '\0';
		if (ls && nvrtcGetProgramLog(prog, lg) != NVRTC_SUCCESS)
			lg[0] = '\0';
		*why = xmalloc(ls + 128);
		snprintf(*why, ls + 128, "NVRTC: %s: %s", nvrtcGetErrorString(r), lg);
		free(lg);
		if (nvrtcDestroyProgram(&prog) != NVRTC_SUCCESS)
			die("nvrtcDestroyProgram failed");
		return NULL;
	}
	size_t n;
	if ((r = nvrtcGetCUBINSize(prog, &n)) != NVRTC_SUCCESS)
		die("nvrtcGetCUBINSize: %s", nvrtcGetErrorString(r));
	char *img = xmalloc(n + 1);
	if ((r = nvrtcGetCUBIN(prog, img)) != NVRTC_SUCCESS)
		die("nvrtcGetCUBIN: %s", nvrtcGetErrorString(r));
	if ((r = nvrtcDestroyProgram(&prog)) != NVRTC_SUCCESS)
		die("nvrtcDestroyProgram: %s", nvrtcGetErrorString(r));
	img[n] = '\0';
	*len = n;

	char *tmp = xmalloc(strlen(path) + 32);
	sprintf(tmp, "%s.tmp.%ld", path, (long)getpid());
	mkdir_p(cache);
	FILE *fp = fopen(tmp, "wb");
	if (!fp)
		die("cannot create '%s': %s", tmp, strerror(errno));
	if (fwrite(img, 1, n, fp) != n || fclose(fp) != 0)
		die("cannot write '%s': %s", tmp, strerror(errno));
	if (rename(tmp, path) != 0)
		die("cannot rename '%s': %s", tmp, strerror(errno));
	free(tmp);
	return img;
}

int nvrtc_config_opts(char (*opt)[64], const char **opts, const char *arch, int bm, int bn,
                      int bk, int stages, int warps, int dt)
{
	const char *const fmt[7] = { "--gpu-architecture=%s", "-DBM=%d", "-DBN=%d", "-DBK=%d",
	                             "-DSTAGES=%d", "-DNW=%d", "-DDT=%d" };
	const int v[7] = { 0, bm, bn, bk, stages, warps, dt };
	snprintf(opt[0], 64, fmt[0], arch);
	for (int i = 1; i < 7; i++)
		snprintf(opt[i], 64, fmt[i], v[i]);
	for (int i = 0; i < 7; i++)
		opts[i] = opt[i];
	return 7;
}
