"""The run's configuration, one module per job: ``schema`` (the JSON Schema, typing and
defaults), ``queries`` (what it asks of each task), ``checks`` (beyond the schema, each naming
its key) and ``keys`` (the cache keys that decide reruns)."""
