"""What the travel app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="travel",
    title="TripNest",
    category="travel",
    description=(
        "A flights-and-hotels booking app for desktop and phone: search flights by route and date (times, stops, "
        "durations, cabin fares that vary by date), search stays by city and dates (stars, guest rating, room types, "
        "nightly rates, free or no cancellation), book and pay into a trip itinerary, change a flight's date or a "
        "stay's nights (fare difference and change fee), and cancel with the fare's refund rules."
    ),
    icon="✈",
    imitates="an online travel agency (e.g. Expedia, Trip.com, Booking.com)",
    pages=(
        PageSpec(path="/", title="Flights", description="Search flights: from, to, date, travellers, cabin; upcoming trips."),
        PageSpec(path="/flights?origin=1&destination=2", title="Flight results", description="A route's flights on a date: times, stops, duration, fares by cabin; nonstop filter and sort."),
        PageSpec(path="/stays", title="Stays", description="Search hotels: destination, check-in, nights, guests."),
        PageSpec(path="/stays/results?city=2", title="Stay results", description="A city's hotels: stars, rating, area, price per night and in all."),
        PageSpec(path="/trips", title="Trips", description="Itineraries: each trip's flight and hotel bookings."),
        PageSpec(path="/bookings/1", title="Booking", description="One booking: details, fare rules, change or cancel."),
    ),
    consequences={
        "trip_booking.ref": "the booking's id and kind",
        "trip_booking.created_at": "the clock when it is booked",
        "trip_booking.total": "the fare or nightly rates of the booking (and of a change)",
        "trip_booking.fare_difference": "a change: the new total less the old",
        "trip_booking.change_fee": "a change of a fare that charges one",
        "trip_booking.changes": "a change",
        "trip_booking.refund_amount": "a cancellation (the refund rules of the fare or rate)",
        "trip_booking.cancelled_at": "the clock when it is cancelled",
        "trip": "a booking added to a new trip",
    },
)
