# perf/models/torch_check.sh — sourced by run.sh and truth.sh: torch_check
# NAME sets $ver to "torch X transformers Y" of the interpreter $PY, first
# pip-installing transformers from $WHEELS when it does not import; else it
# says so (NAME: the caller, in the message) and exits 1.
torch_check() {
	local imports='import torch, transformers; print("torch", torch.__version__, "transformers", transformers.__version__)'
	if ver=$($PY -c "$imports" 2>/dev/null); then return 0; fi
	if [ -n "${WHEELS:-}" ]; then
		$PY -m pip install -q --no-index --find-links "$WHEELS" transformers || exit 1
		ver=$($PY -c "$imports") || exit 1
	else
		echo "$1: torch or transformers does not import (WHEELS=DIR to install transformers from wheels)"; exit 1
	fi
}
