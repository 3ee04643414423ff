"""Clinic booking, mobile-first, like Zocdoc: find a doctor by specialty, date and insurance, book a free slot for a saved patient, cancel or reschedule under time rules."""
