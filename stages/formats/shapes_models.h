/* shapes_models.h — the model-layer table (stages/FORMATS.md "model-layer
 * table"; datasets/shapes/models.tsv) and its expansion into the GEMMs a
 * model runs.
 *
 * One table row is one linear layer y = x W' of one model in one phase:
 * x (T, in_features) row-major, T = tokens (batch x sequence), W a weight
 * stored (out, in) as nn.Linear ("out_in": y = x W^T, mat2 a transposed
 * view) or (in, out) as Hugging Face's GPT-2 Conv1D ("in_out": y = x W).
 * Its GEMMs (torch.mm(mat1, mat2), the operands' strides as Inductor logs
 * them), for each precision, each token count T and each pass:
 *
 *   weight  pass  m    k    n    mat1                  mat2
 *   out_in  fwd   T    in   out  x    (xs, 1)          W^T  (1, in)
 *   out_in  dX    T    out  in   dY   (ds, 1)          W    (in, 1)
 *   out_in  dW    out  T    in   dY^T (1, ds)          x    (xs, 1)
 *   in_out  fwd   T    in   out  x    (xs, 1)          W    (out, 1)
 *   in_out  dX    T    out  in   dY   (ds, 1)          W^T  (1, out)
 *   in_out  dW    in   T    out  x^T  (1, xs)          dY   (ds, 1)
 *
 * (autograd's mm backward: dX = dY mat2^T, dW = mat1^T dY, computed as
 * (dY^T x)^T when the weight operand is a transposed view, as
 * mm_mat2_backward does).  xs = in and ds = out, unless pad is "inductor":
 * then an activation's row stride C is rounded up as Inductor's
 * comprehensive padding does for the buffers its kernels write
 * (torch/_inductor/ir.py Layout._pad_strides: C > padding_stride_threshold
 * = 1024 and C not a multiple of padding_alignment_bytes / itemsize =
 * 128 / itemsize), e.g. the logits gradient of a 50257-word vocabulary in
 * fp16 gets stride 50304.  The weight is a parameter: never padded.
 *
 * Source token of each GEMM: model.layer.phase, plus ".dX" / ".dW" for the
 * backward passes.
 */
#ifndef MMRANK_SHAPES_MODELS_H
#define MMRANK_SHAPES_MODELS_H

#include <stdint.h>

#include "shapes.h"

/* The table's header line (exact). */
extern const char shape_models_header[];

/* Called once per GEMM, in table order (per row: precisions, then token
 * counts, then passes fwd, dX, dW, each in the order listed); r is complete
 * (shape_complete) and valid only during the call. */
typedef void (*shape_emit_fn)(void *ctx, const shape_row *r);

/* Read the table at path and emit its GEMMs.  Dies naming file:line:
 * field on any error.  Returns the number of table rows. */
int64_t shape_models_expand(const char *path, shape_emit_fn emit, void *ctx);

/* Inductor's padded row stride for a row of c elements of itemsize bytes. */
int64_t shape_inductor_pad(int64_t c, int itemsize);

#endif
