"""What a task is written in: the task and suite records a spec module declares, the transfer
settings, language codes and what is known about each language."""
