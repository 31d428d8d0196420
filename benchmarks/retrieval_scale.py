"""Retrieval at scale: encoding throughput against sentence-transformers, and exact top-20
search over a large pool (faiss against our numpy search), with the memory it takes.

1. Encoding: the same model (e5-small), the same real sentences (the shared XQuAD-R English
   file's paragraphs' sentences), the same batch size and pooling (mean over every real token,
   L2-normalised): ``mte.modelling.embeddings.encode_sentences`` against sentence-transformers'
   ``SentenceTransformer.encode`` (a Transformer and a mean Pooling module, then Normalize).
   Rounds alternate after an untimed warm-up; the best of each is kept. Embeddings must agree
   to 1e-5.
2. Search: a pool of random unit vectors (e5-small's 384 dimensions; a million by default) and
   queries drawn the same way: ``mte.stats.ranking.top_k`` (numpy: the queries against blocks
   of the pool, each block's best k joined to the best so far) against faiss
   ``IndexFlatIP.search`` (both exact), each with the threads the process has (the result
   records them and the machine's load). The top-20 lists must agree (scores to 1e-5). The
   memory our search takes beyond the pool is traced (tracemalloc) for pools of a quarter, a
   half and all of the size: it stays bounded as the pool grows. For equal threads on both
   sides set them for the whole process: ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1``.

    .venv/bin/python benchmarks/retrieval_scale.py [--sentences 1024] [--pool 1000000]
"""

from __future__ import annotations

import argparse
import json
import tracemalloc

from _common import SHARED, alternating_best, e5_folder, machine, write_result


def xquad_r_sentences(count: int) -> list[str]:
    path = SHARED / "lareqa" / "xquad-r" / "en.json"
    if not path.is_file():
        raise SystemExit(f"benchmark needs the real XQuAD-R files: {path} not found")
    data = json.loads(path.read_text(encoding="utf-8"))
    sentences = [
        paragraph["context"][start:end]
        for article in data["data"]
        for paragraph in article["paragraphs"]
        for start, end in paragraph["sentence_breaks"]
    ]
    return sentences[:count]


def encoding(args: argparse.Namespace) -> dict:
    import numpy as np
    from sentence_transformers import SentenceTransformer, models
    from transformers import AutoModel, AutoTokenizer

    from mte.modelling.embeddings import encode_sentences

    folder = str(e5_folder())
    texts = xquad_r_sentences(args.sentences)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    transformer = models.Transformer(folder, max_seq_length=512)
    pooling = models.Pooling(transformer.get_embedding_dimension(), pooling_mode="mean")
    st = SentenceTransformer(modules=[transformer, pooling, models.Normalize()], device="cpu")

    runs = {
        "sentence_transformers": lambda: st.encode(
            texts, batch_size=args.batch_size, convert_to_numpy=True
        ),
        "ours": lambda: encode_sentences(model, tokenizer, texts, batch_size=args.batch_size),
    }
    for run in runs.values():  # untimed warm-up
        run()
    timed = alternating_best(args.repeats, runs)
    difference = float(np.abs(timed["ours"][1] - timed["sentence_transformers"][1]).max())
    seconds = {name: value[0] for name, value in timed.items()}
    return {
        "sentences": len(texts),
        "batch_size": args.batch_size,
        "seconds": seconds,
        "sentences_per_second": {name: len(texts) / s for name, s in seconds.items()},
        "speedup_vs_sentence_transformers": seconds["sentence_transformers"] / seconds["ours"],
        "max_abs_embedding_difference": difference,
        "embeddings_equal_to_1e-5": difference <= 1e-5,
    }


def unit_rows(rng, rows: int, dim: int):
    import numpy as np

    vectors = rng.standard_normal((rows, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def search(args: argparse.Namespace) -> dict:
    import faiss
    import numpy as np

    from mte.stats.ranking import top_k

    rng = np.random.default_rng(0)
    pool = unit_rows(rng, args.pool, 384)
    queries = unit_rows(rng, args.queries, 384)
    index = faiss.IndexFlatIP(pool.shape[1])
    index.add(pool)

    runs = {
        "faiss": lambda: index.search(queries, args.k)[1],
        "ours": lambda: top_k(queries, pool, args.k),
    }
    timed = alternating_best(args.repeats, runs)
    ours, theirs = timed["ours"][1], timed["faiss"][1]
    same_lists = float((ours == theirs).all(axis=1).mean())
    # where a list differs, the scores at each place must still agree (a tie ordered otherwise)
    score_of = lambda found: np.einsum("qd,qkd->qk", queries, pool[found])  # noqa: E731
    score_difference = float(np.abs(score_of(ours) - score_of(theirs)).max())

    memory = {}
    for fraction in (4, 2, 1):
        part = pool[: args.pool // fraction]
        tracemalloc.start()
        top_k(queries, part, args.k)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        memory[str(len(part))] = peak / 2**20
    seconds = {name: value[0] for name, value in timed.items()}
    return {
        "pool": args.pool,
        "queries": args.queries,
        "k": args.k,
        "seconds": seconds,
        "ours_vs_faiss": seconds["faiss"] / seconds["ours"],
        "identical_top_k_lists": same_lists,
        "max_abs_score_difference": score_difference,
        "pool_mib": pool.nbytes / 2**20,
        "ours_peak_mib_beyond_the_pool_by_pool_size": memory,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=1024)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--pool", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=256)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    result = {"machine": machine(), "encoding": encoding(args), "search": search(args)}
    print(json.dumps(result, indent=2))
    print("written:", write_result("retrieval_scale", result))


if __name__ == "__main__":
    main()
