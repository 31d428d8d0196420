"""Printed tables: a task's table from its score files, its statistics columns, the papers'
published rows beside ours, the notes beside the numbers, and the one renderer (Markdown,
LaTeX, HTML)."""
