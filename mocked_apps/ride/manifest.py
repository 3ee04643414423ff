"""What the ride app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="ride",
    title="Ride",
    category="travel",
    description=(
        "A ride-hailing app, mobile-first: pick up and drop off at saved, recent or known places; vehicle classes "
        "(Express, Comfort, Premier, XL, Taxi) with seats, pickup times and fare estimates from distance and time; "
        "ride now or schedule one; a trip goes from driver on the way to on trip to arrived as the instance clock "
        "advances; receipts with the fare breakdown; ratings and tips; trip history; saved places."
    ),
    icon="◉",
    imitates="a ride-hailing app (e.g. DiDi, Uber, Lyft)",
    pages=(
        PageSpec(path="/", title="Where to?", description="Pickup and destination from saved, recent and known places."),
        PageSpec(path="/options?pickup=1&dropoff=3", title="Choose a ride", description="Vehicle classes with seats, pickup time and fare estimate; payment; now or scheduled."),
        PageSpec(path="/trips", title="Trips", description="Trip history: upcoming, completed and cancelled rides."),
        PageSpec(path="/trips/1", title="Trip", description="A trip's progress, driver and route; its receipt, rating and tip once completed."),
        PageSpec(path="/places", title="Places", description="Saved places: save a known place under a label, remove one."),
    ),
    inert_rows={"ride": {"status": "cancelled"}},
    consequences={
        "ride.number": "the ride's id and the clock when it is booked",
        "ride.requested_at": "the clock when it is booked",
        "ride.pickup_at": "the clock and the class's pickup time, or the scheduled time",
        "ride.dropoff_at": "the pickup time and the trip's minutes",
        "ride.km": "the route", "ride.minutes": "the route",
        "ride.base_fare": "the class", "ride.distance_fare": "the class and the route", "ride.time_fare": "the class and the route",
        "ride.fare": "the class and the route", "ride.total": "the fare and the tip",
        "ride.driver_name": "the driver assigned when the ride is booked", "ride.car": "the driver assigned", "ride.plate": "the driver assigned",
        "place.last_used": "the clock when a ride to or from the place is booked",
    },
)
