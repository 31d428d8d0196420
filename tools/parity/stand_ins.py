"""Stand-ins for what transformers 2.4.1 imports and XTREME's feature code never calls,
written into the parity environment's site-packages by setup.sh (usage: python stand_ins.py
SITE_PACKAGES). Kept as text here, not as packages in the project's tree, so that no reading
of the project's imports (linters, import contracts, dependency scanners) takes them for the
real boto3, botocore or tokenizers. Each fails loudly if touched."""

from __future__ import annotations

import sys
from pathlib import Path

# each stand-in module: its path under site-packages, its text
STAND_INS = {
    "boto3/__init__.py": '''"""Stand-in: transformers 2.4.1's file_utils imports boto3 for s3://
downloads, which the parity harness never makes (every tokenizer is read from a local folder)."""


def resource(*args, **kwargs):
    raise RuntimeError("boto3 is a stand-in in the parity environment: no s3:// downloads")
''',
    "botocore/__init__.py": '''"""Stand-in: imported beside boto3 by transformers 2.4.1's file_utils
(see boto3's)."""
''',
    "botocore/config.py": '''"""Stand-in of botocore.config.Config (imported, never called, by
transformers 2.4.1)."""


class Config:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("botocore is a stand-in in the parity environment")
''',
    "botocore/exceptions.py": '''"""Stand-in of botocore.exceptions.ClientError (imported, never
raised, by transformers 2.4.1)."""


class ClientError(Exception):
    pass
''',
    "tokenizers/__init__.py": '''"""Stand-in: transformers 2.4.1 imports the Rust tokenizers 0.0.11
(Python 3.5-3.8 wheels only) for its *Fast classes, which the parity harness never builds:
XTREME's scripts use the slow Python tokenizers. Touching anything here fails loudly."""


def __getattr__(name):
    raise RuntimeError(f"tokenizers.{name}: tokenizers is a stand-in in the parity environment")
''',
}


def write_stand_ins(site_packages: Path) -> list[Path]:
    """Each stand-in module under ``site_packages``; the files written."""
    written = []
    for name, text in STAND_INS.items():
        path = site_packages / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_stand_ins(Path(sys.argv[1])):
        print(f"stand-in: {path}")
