"""World -> bank seed: accounts with balances at the clock, payees, the running ledger, and the online bill
payments behind its bill-pay lines (confirmed, each linked to its line), so the default seed is a projection."""

from __future__ import annotations

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

_METHOD = {"payroll": "ach", "rent": "ach", "income": "deposit", "card": "card"}


def project(world: World) -> dict[str, list[dict]]:
    orgs = {o.id: o for o in world.organisations}
    account_ids = {a.id: i + 1 for i, a in enumerate(world.accounts)}
    running = {a.id: a.opening_balance for a in world.accounts}
    rows: dict[str, list[dict]] = {
        "account": [{"id": account_ids[a.id], "name": a.name, "kind": a.kind, "number_masked": f"•••• {a.number}",
                     "balance": world.balance(a.id), "credit_limit": 5000.0 if a.kind == "credit" else 0.0}
                    for a in world.accounts],
        "payee": [{"id": i + 1, "name": orgs[p.org].name, "account_ref": p.account_ref, "category": p.category.title()}
                  for i, p in enumerate(world.payees)],
        "transfer": [], "transaction": [],
        **identity_seed(world.persona),
    }
    payee_ids = {p["name"]: p["id"] for p in rows["payee"]}
    for t in sorted(world.transactions, key=lambda t: (t.posted, t.id)):
        running[t.account] = round(running[t.account] + t.amount, 2)
        counterparty = orgs[t.counterparty].name if t.counterparty in orgs else t.counterparty
        method = "bill_pay" if t.reference and t.amount < 0 and t.category not in _METHOD else _METHOD.get(t.category, "ach")
        transfer_id = None
        if method == "bill_pay":
            transfer_id = len(rows["transfer"]) + 1
            rows["transfer"].append({
                "id": transfer_id, "kind": "payment", "from_account_id": account_ids[t.account], "to_account_id": None,
                "payee_id": payee_ids.get(counterparty), "payee_name": counterparty, "amount": -t.amount, "memo": t.reference,
                "status": "confirmed", "created_at": t.posted.isoformat(), "confirmed_at": t.posted.isoformat()})
        rows["transaction"].append({
            "id": len(rows["transaction"]) + 1, "account_id": account_ids[t.account], "posted_at": t.posted.isoformat(),
            "description": t.description, "amount": t.amount, "category": t.category.title(), "counterparty": counterparty,
            "reference": t.reference, "method": method, "balance_after": running[t.account], "transfer_id": transfer_id,
        })
    return rows
