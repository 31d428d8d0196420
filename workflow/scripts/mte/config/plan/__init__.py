"""One plan of the run: every task's configuration resolved once, typed and frozen, after the
schema has filled the defaults and the checks have passed. The rules read its attributes (their
input functions are one-liners over it) and hand each script its options as one param; the
folder keys are digests of its records.

- :class:`TaskPlan`: a task's languages, settings, seeds, the task whose fine-tunes it uses, its
  encoder and splits, its data source, hyper-parameters and tokenisation;
- :class:`Tokenization` (``records``): what decides a task's features besides its data: a new
  option is a field of it and a key of the schema, and enters the features' folder key by being
  a field;
- :class:`ModelPlan`: a model's entry (source, revision) and the settings it runs;
- :class:`RunPlan`: all of them, with what relates them (training splits, evaluated splits,
  the settings a model runs for a task, the folder keys).

The resolution from the raw config (``mte.config.plan.resolve``) and the keys
(``mte.config.plan.keys``) live in this package and nowhere else reads a task's entry by name.
"""

from mte.config.plan.records import Tokenization
from mte.config.plan.run import ModelPlan, RunPlan, TaskPlan, build_plan, thawed

__all__ = ["ModelPlan", "RunPlan", "TaskPlan", "Tokenization", "build_plan", "thawed"]
