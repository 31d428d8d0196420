"""Runs XTREME's evaluate.py, unmodified, from a checkout of google-research/xtreme, in the
parity environment (tools/parity/.venv: seqeval 0.0.12, XTREME's of 2020), and writes what its
``evaluate()`` returns as JSON: its group scores, then each task's detailed scores, as its
``__main__`` writes them.

``--languages`` (a JSON object, evaluate.py's folder -> languages) narrows its language lists
at run time to what a partial export holds, since evaluate.py stops at the first file a task
lacks; the lists are the module's data, its file is not touched.

Usage: tools/parity/.venv/bin/python tools/parity/evaluate_py.py --xtreme CHECKOUT
    --predictions DIR --labels DIR --version xtreme|xtreme-r --output FILE [--languages JSON]
       tools/parity/.venv/bin/python tools/parity/evaluate_py.py --xtreme CHECKOUT --tables
    (--tables: its task, language and group lists as JSON on stdout)
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--xtreme", required=True)
    parser.add_argument("--predictions")
    parser.add_argument("--labels")
    parser.add_argument("--version", default="xtreme")
    parser.add_argument("--output")
    parser.add_argument("--languages", default="")
    parser.add_argument("--tables", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, args.xtreme)
    import evaluate  # the checkout's evaluate.py

    if args.tables:
        json.dump(
            {
                "groups": evaluate.XTREME_VERSIONS_GROUP_DICT,
                "languages": evaluate.XTREME_VERSIONS_LANG_DICT,
            },
            sys.stdout,
        )
        return
    if args.languages:
        evaluate.XTREME_VERSIONS_LANG_DICT[args.version] = json.loads(args.languages)
    groups, detailed = evaluate.evaluate(args.predictions, args.labels, args.version)
    groups.update(detailed)
    with open(args.output, "w") as f:
        json.dump(groups, f, indent=2)


if __name__ == "__main__":
    main()
