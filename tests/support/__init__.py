"""What the tests share: the simulated network, the test vectors, the real-process and real-terminal
harnesses, position builders for the rule tests, and their data (snapshots, a fifth game)."""
