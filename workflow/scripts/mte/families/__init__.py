"""The task families, one package each (``mte/families/<family>/``) behind the contract of
:class:`mte.families.base.TaskFamily`; each package lists its classes in ``FAMILY_CLASSES``.
The registry (mte.registry) finds them and checks every family and every task spec against the
contract."""
