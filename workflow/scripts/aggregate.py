"""Rule aggregate: a task's score files into its table (CSV, Markdown, LaTeX, HTML), with published
numbers and deltas for the models that have them."""

from mte.io import read_json, write_json, write_text
from mte.published import load_references
from mte.registry import family_of, get_task
from mte.runtime.logs import rule_logging
from mte.tables.notes import (
    data_note,
    in_context_note,
    label_demo,
    left_out_note,
    method_note,
)
from mte.tables.published_rows import with_references
from mte.tables.render import html, latex, markdown, pair_matrix_document, task_document
from mte.tables.statistics_columns import with_statistics
from mte.tables.task_table import task_table, with_second_metric

with rule_logging(snakemake) as log:
    task = get_task(snakemake.wildcards.task)
    languages = snakemake.params.languages
    scores = [read_json(path) for path in snakemake.input.scores]
    table = task_table(scores, languages, task.primary_metric)
    kind = family_of(task).sufficient_statistics(task)
    options = snakemake.params.statistics
    table, marks = with_statistics(table, scores, kind, task.primary_metric, languages, options)
    title = f"{task.title} ({task.primary_metric}, %)"
    if encoder := snakemake.params.encoder:
        # Tatoeba as XTREME-R's run_tatoeba.sh runs it: not the pretrained encoder's figures
        title = f"{task.title}, embedded by {get_task(encoder).title}'s zero-shot fine-tunes "
        title += f"({task.primary_metric}, %)"
    second, metrics = None, family_of(task).table_metrics(task)
    if "_em" in metrics:  # a second value per cell: QA's F1 / EM, as the papers print them
        second = "em"
        table = with_second_metric(table, task_table(scores, languages, metrics["_em"]), second)
        title = f"{task.title} (F1 / EM, %)"
    references = load_references(snakemake.input.references)
    table = with_references(table, references, task.name, languages, metrics, task.languages)
    document = task_document(table, languages, title, second, marks)
    # LoRA and prompting: the row's model and setting names do not say all of it
    for note in (method_note(scores), in_context_note(scores, task.primary_metric)):
        if note:
            document.notes.append(note)
    document.notes.extend(left_out_note({task.title: snakemake.params.left_out}))
    printed = document
    if task.table_layout == "pair_matrix":  # G-XLT: contexts x questions, per model
        printed = pair_matrix_document(table[table["row"] == "ours"], languages, title)
    texts = {
        "csv": table.to_csv(index=False, float_format="%.2f"),
        "md": markdown(printed),
        "tex": latex(document),
    }
    # the report's view: the printed table with its data note (source, n per language)
    warning, about = data_note(task, scores, languages, snakemake.params.task_config)
    if warning:  # demo numbers: labelled in every file, not only on the report's page
        texts = label_demo(texts, warning)
    for extension, text in texts.items():
        write_text(snakemake.output[extension], text)
    write_text(snakemake.output.html, html(printed, about, warning))
    # what produced every cell: the score files' provenance, beside the table
    write_json(
        snakemake.output.provenance,
        [
            {k: s[k] for k in ("model", "setting", "seed", "language", "split", "provenance")}
            for s in scores
        ],
    )
    log.info("%d rows", len(table))
