#!/usr/bin/env bash
# The parity harness's second environment: XTREME's feature code on transformers 2.4.1.
# Usage: bash tools/parity/setup.sh  (makes tools/parity/.venv; about 30 s with a pip cache)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
# transformers 2.4.1 without its dependencies: tokenizers 0.0.11 has no wheel for this Python
# and boto3 is only for s3:// downloads; both get stand-ins (stand_ins.py, README "Patches and stubs")
grep -v -e '^transformers' -e '^seqeval' "$here/requirements.txt" | "$venv/bin/pip" install -q -r /dev/stdin
"$venv/bin/pip" install -q --no-deps "$(grep '^transformers' "$here/requirements.txt")"
"$venv/bin/pip" install -q --no-deps "$(grep '^seqeval' "$here/requirements.txt")"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
rm -f "$site/parity-stubs.pth"  # what earlier versions of this script wrote
"$venv/bin/python" "$here/stand_ins.py" "$site"
"$venv/bin/python" -c 'import transformers; print("parity environment: transformers", transformers.__version__)'
