"""Mail: a Gmail-like webmail with folders, labels, threads, compose, reply, forward and search."""
