"""Task specs, one module per benchmark. Each module defines ``TASKS``, a tuple of
:class:`mte.tasks.spec.Task` (and optionally ``SUITES``, of :class:`mte.tasks.spec.Suite`), with its
family's options and, where its records need one, a row adapter; mte.registry discovers every
module here (names starting with an underscore are helpers). docs/adding-a-task.md says how to
add one."""
