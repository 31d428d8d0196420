"""Models at work: devices and precision, batching, the features every family shares, heads,
the fine-tuning loop, sentence embeddings and machine translation."""
