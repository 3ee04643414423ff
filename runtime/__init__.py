"""The one rollout path: environment manager, backends, browser sessions, harness, agents, stores."""
