"""The clinics and doctors every world's app lists around the persona's city, plus the world's own health
vendors (a physiotherapy practice of a scenario) as clinics whose therapists take bookings."""

from __future__ import annotations

import zlib

from contracts.world import World

from .rules import CARRIERS

__all__ = ["clinics_and_doctors"]

_CLINICS = (
    ("{city} Family Health", "118 Maple Avenue", "#0f766e"),
    ("Bright Smile Dental", "42 Harbor Street", "#2563eb"),
    ("Cedar Skin & Eye Clinic", "7 Cedar Lane", "#9333ea"),
    ("Harbor Physio & Sports", "300 Pier Road", "#ea580c"),
)

# name, credentials, specialty, clinic (1-based), days, hours, slot minutes, busy %, fee, late fee, video, languages
_DOCTORS = (
    ("Dr. Maya Patel", "MD", "Primary care", 1, "12345", "08:00-12:00,13:00-17:00", 30, 55, 150.0, 40.0, True, "English, Hindi"),
    ("Dr. Samuel Okafor", "MD", "Primary care", 1, "123456", "09:00-13:00,14:00-18:00", 20, 45, 140.0, 35.0, False, "English"),
    ("Dr. Lena Fischer", "MD", "Pediatrician", 1, "12345", "08:30-12:30,13:30-16:30", 30, 50, 160.0, 40.0, True, "English, German"),
    ("Dr. Tomás Rivera", "MD", "Pediatrician", 1, "2345", "10:00-14:00,15:00-18:00", 30, 35, 155.0, 40.0, False, "English, Spanish"),
    ("Dr. Hannah Cho", "DDS", "Dentist", 2, "12345", "08:00-12:00,13:00-17:00", 45, 50, 180.0, 50.0, False, "English, Korean"),
    ("Dr. Omar Haddad", "DDS", "Dentist", 2, "13456", "09:00-13:00,14:00-17:00", 30, 60, 170.0, 50.0, False, "English, Arabic"),
    ("Dr. Grace Kim", "DMD", "Dentist", 2, "1234", "07:30-11:30,12:30-15:30", 30, 40, 190.0, 60.0, False, "English"),
    ("Dr. Priya Raman", "MD", "Dermatologist", 3, "12345", "09:00-12:00,13:00-16:00", 20, 60, 210.0, 60.0, True, "English, Tamil"),
    ("Dr. Julian Weiss", "MD", "Dermatologist", 3, "2345", "08:00-12:00", 30, 40, 230.0, 75.0, False, "English, French"),
    ("Dr. Aisha Bello", "MD", "Dermatologist", 3, "12346", "10:00-13:00,14:00-18:00", 30, 50, 200.0, 60.0, True, "English, Yoruba"),
    ("Dr. Noah Berg", "OD", "Eye doctor", 3, "12345", "09:00-12:00,13:00-17:00", 30, 45, 130.0, 30.0, False, "English, Swedish"),
    ("Dr. Elena Petrova", "OD", "Eye doctor", 3, "3456", "10:00-14:00,15:00-19:00", 40, 35, 125.0, 30.0, False, "English, Russian"),
    ("Dr. Jordan Lee", "DPT", "Physical therapist", 4, "12345", "07:00-11:00,12:00-19:00", 45, 50, 110.0, 40.0, True, "English"),
    ("Dr. Sofia Marino", "DPT", "Physical therapist", 4, "12346", "08:00-12:00,13:00-16:00", 45, 40, 115.0, 40.0, False, "English, Italian"),
)

_BIOS = {
    "Primary care": "Preventive care, check-ups and everyday illnesses for adults.",
    "Pediatrician": "Care for children from newborns to teens: check-ups, vaccines and sick visits.",
    "Dentist": "General and cosmetic dentistry: cleanings, fillings and whitening.",
    "Dermatologist": "Skin, hair and nails: skin checks, acne, rashes and minor procedures.",
    "Eye doctor": "Eye exams, glasses and contact lens prescriptions.",
    "Physical therapist": "Rehabilitation after injuries and for back and joint pain.",
}


def _accepts(name: str) -> str:
    """The carriers a doctor takes: about three in five, fixed by their name; at least one."""
    taken = [c for c in CARRIERS if zlib.crc32(f"{name}/{c}".encode()) % 100 < 60] or [CARRIERS[zlib.crc32(name.encode()) % len(CARRIERS)]]
    return ", ".join(taken)


def _phone(text: str) -> str:
    n = zlib.crc32(text.encode())
    return f"(555) {100 + n % 900:03d}-{1000 + n // 900 % 9000:04d}"


def clinics_and_doctors(world: World) -> tuple[list[dict], list[dict]]:
    city = world.persona.city or "Downtown"
    clinics = [{"id": i + 1, "name": name.format(city=city), "address": f"{street}, {city}", "phone": _phone(f"{world.id}/{i}"), "color": color}
               for i, (name, street, color) in enumerate(_CLINICS)]
    doctors = []
    for name, cred, spec, clinic, days, hours, minutes, busy, fee, late, video, langs in _DOCTORS:
        n = zlib.crc32(f"{world.id}/{name}".encode())
        doctors.append({"id": len(doctors) + 1, "name": name, "credentials": cred, "specialty": spec, "clinic_id": clinic,
                        "rating": round(4.2 + (n % 8) / 10, 1), "reviews": 20 + n % 480, "languages": langs, "bio": _BIOS[spec],
                        "accepts": _accepts(name), "video": video, "days": days, "hours": hours, "slot_minutes": minutes,
                        "busy": busy, "fee": fee, "late_fee": late})
    for org in world.organisations:
        if org.kind != "vendor" or org.category != "health":
            continue
        staff = [p for p in world.people if p.org == org.id]
        therapists = [p for p in staff if "therap" in p.role or "physio" in p.role] or staff[:1]
        if not therapists:
            continue
        clinics.append({"id": len(clinics) + 1, "name": org.name, "address": f"{10 + len(clinics)} Wellness Way, {city}",
                        "phone": _phone(org.id), "color": "#0891b2"})
        for p in therapists:
            doctors.append({"id": len(doctors) + 1, "name": p.name, "credentials": "DPT", "specialty": "Physical therapist",
                            "clinic_id": clinics[-1]["id"], "rating": 4.8, "reviews": 36, "languages": "English",
                            "bio": _BIOS["Physical therapist"], "accepts": _accepts(p.name), "video": False, "days": "12345",
                            "hours": "08:00-17:00", "slot_minutes": 45, "busy": 50, "fee": 65.0, "late_fee": 30.0})
    return clinics, doctors
