"""How and where a rule's job runs: its log and progress output, the GPU it claims, and the
digest of the package code it runs (which keys its results)."""
