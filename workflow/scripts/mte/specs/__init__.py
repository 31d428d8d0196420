"""Task specs, one module per benchmark. Each module defines ``TASKS``, a tuple of
:class:`mte.tasks.Task`; ``mte.tasks`` discovers every module here (names starting with an
underscore are helpers). docs/adding-a-task.md says how to add one."""
