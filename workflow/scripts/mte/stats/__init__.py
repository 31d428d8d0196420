"""Numbers from examples: the benchmarks' metrics as sufficient statistics, bootstrap intervals
and paired tests, ranking metrics, and pairing predictions with gold examples one to one."""
