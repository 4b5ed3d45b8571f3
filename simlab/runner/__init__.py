"""The experiment runner: spec -> plan -> shards -> store."""
