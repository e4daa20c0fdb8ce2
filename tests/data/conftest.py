# Case trees used as test data: never collected by the project's own test run.
collect_ignore_glob = ["*"]
