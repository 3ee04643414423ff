"""Bank's recipes: how the bank shows a world's accounts and payees, golden steps and verifier predicates.

Other families call these instead of re-typing the bank's labels (the account option label of the
pay and transfer forms, the payee label), its row ids or its tables.
"""

from __future__ import annotations

from contracts.world import World

from .manifest import MANIFEST

__all__ = ["account_id", "account_label", "new_payments_source", "open_app", "paid_source", "pay_bill", "payee_label", "transfer",
           "search_transactions"]


def account_label(world: World, kind: str) -> str:
    """How the bank's drop-downs show the world's account of that kind: name and masked number."""
    acc = next(a for a in world.accounts if a.kind == kind)
    return f"{acc.name} •••• {acc.number}"


def account_id(world: World, kind: str) -> int:
    """The bank's row id of the world's account of that kind (the projection keeps the world's order)."""
    return 1 + [a.kind for a in world.accounts].index(kind)


def payee_label(world: World, org_id: str) -> str:
    """How the bank's payee drop-down shows the world's payee for an organisation."""
    payee = next(p for p in world.payees if p.org == org_id)
    return f"{world.org(org_id).name} ({payee.account_ref})"


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def pay_bill(from_label: str, payee: str, amount_text: str, memo: str) -> str:
    """Pay a bill through the review step: from an account (its label), to a payee (its label)."""
    return "\n".join([
        'env.click("Pay a bill", role="link")', f'env.select("From account", {from_label!r})',
        f'env.select("Payee", {payee!r})', f'env.fill("Amount", {amount_text!r})', f'env.fill("Memo / reference", {memo!r})',
        'env.click("Review payment", role="button")', 'env.click("Confirm payment", role="button")'])


def transfer(from_label: str, to_label: str, amount_text: str) -> str:
    """Transfer between two own accounts (their labels) through the review step."""
    return "\n".join([
        'env.click("Transfer money", role="link")', f'env.select("From", {from_label!r})', f'env.select("To", {to_label!r})',
        f'env.fill("Amount", {amount_text!r})', 'env.click("Review transfer", role="button")',
        'env.click("Confirm transfer", role="button")'])


def search_transactions(text: str) -> str:
    return f'env.fill(env.word("Search") + " transactions", {text!r})\nenv.press("Enter")'


def new_payments_source(fn: str) -> str:
    """`fn(final)`: the payments and transfers confirmed during the attempt."""
    return f'''
def {fn}(final):
    bank, before = final.state["bank"], final.initial_state["bank"]
    old = {{t["id"] for t in before["transfer"]}}
    return [t for t in bank["transfer"] if t["id"] not in old and t["status"] == "confirmed"]
'''


def paid_source(fn: str, payee: str, amount: float, from_id: int | None = None, memo_has: str | None = None) -> str:
    """`fn(final)`: the confirmed new payments of `amount` to `payee` (by name), from account `from_id` and with
    `memo_has` in the memo when given. Needs `new_payments_source("_bank_new")` in the same verifier."""
    extra = (f' and t["from_account_id"] == {from_id!r}' if from_id is not None else "") + \
            (f' and {memo_has!r} in t["memo"]' if memo_has is not None else "")
    return f'''
def {fn}(final):
    return [t for t in _bank_new(final) if t["kind"] == "payment" and t["payee_name"] == {payee!r}
            and abs(t["amount"] - {amount!r}) < 0.005{extra}]
'''
