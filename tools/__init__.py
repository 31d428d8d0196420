"""Tools of the project's developers: tier runners, result comparisons, the parity harness."""
