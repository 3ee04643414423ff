"""Rail Tickets: a deterministic national rail ticketing app in the manner of 12306 (search, book, pay, refund, change)."""
