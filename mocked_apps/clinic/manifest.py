"""What the clinic app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="clinic",
    title="Clinic Booking",
    category="health",
    description=(
        "A doctor booking app, mobile-first: find doctors by specialty, date and insurance, compare ratings and the day's "
        "free slots, book a slot for yourself or a family member with a reason for the visit, then cancel (free until 24 hours "
        "before, a late fee after, not online in the last 2 hours) or move it to another time; saved patients with their "
        "insurance details."
    ),
    icon="✚",
    imitates="a doctor appointment booking app (e.g. Zocdoc, Doctolib)",
    pages=(
        PageSpec(path="/", title="Find care", description="Specialty, date and insurance search; upcoming appointments."),
        PageSpec(path="/search?specialty=Dentist", title="Doctors", description="Doctors of a specialty with the day's free slots; filter and sort."),
        PageSpec(path="/doctors/1", title="Doctor", description="A doctor's profile, clinic, insurance and free slots by day."),
        PageSpec(path="/appointments", title="Appointments", description="Upcoming, past and cancelled visits."),
        PageSpec(path="/appointments/1", title="Appointment", description="One visit: cancel or reschedule."),
        PageSpec(path="/patients", title="Patients", description="Saved patients and their insurance."),
        PageSpec(path="/patients/new", title="Add patient", description="A family member's details, validated."),
    ),
    consequences={
        "appointment.created_at": "the clock when a visit is booked",
        "appointment.code": "the appointment's id and the clock when it is booked",
        "appointment.end": "the start of the visit and the doctor's visit length",
        "appointment.patient_name": "the patient chosen",
        "appointment.cancelled_at": "the clock when it is cancelled",
        "appointment.cancel_fee": "the cancellation policy at the moment of cancelling",
        "appointment.reschedules": "a move to another time",
    },
)
