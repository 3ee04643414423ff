"""What the bank app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="bank",
    title="Meridian Business Online",
    category="finance",
    description=(
        "A business online-banking site: checking, savings and credit-card accounts with balances, transaction "
        "search and filters, bill payment to saved payees and transfers between own accounts (each with a review "
        "step before money moves), payee management, and monthly statements."
    ),
    icon="◈",
    imitates="a business online-banking website (e.g. Chase for Business, Bank of America Business)",
    pages=(
        PageSpec(path="/", title="Accounts overview", description="Balances of every account, pending payments, recent activity."),
        PageSpec(path="/accounts/1", title="Account activity", description="One account's transactions; search and filter by date, amount, category, debit/credit."),
        PageSpec(path="/transactions", title="All transactions", description="Transactions of every account, with the same search and filters."),
        PageSpec(path="/transactions/1", title="Transaction details", description="One transaction; change its category."),
        PageSpec(path="/pay", title="Pay a bill", description="Pay a saved payee from an account, with a memo such as an invoice number; review, then confirm."),
        PageSpec(path="/transfer", title="Transfer money", description="Move money between own accounts; review, then confirm."),
        PageSpec(path="/transfers", title="Payments & transfers", description="Pending, confirmed and cancelled payments and transfers."),
        PageSpec(path="/payees", title="Payees", description="Saved payees: add, edit, delete, pay."),
        PageSpec(path="/payees/new", title="Add payee", description="Save a new payee with its account number/reference and category."),
        PageSpec(path="/statements", title="Statements", description="Monthly statements per account with opening and closing balances."),
        PageSpec(path="/statements/1/2026-01", title="Statement", description="One month of one account: opening, credits, debits, closing, lines."),
    ),
    inert_rows={"transfer": {"status": "cancelled"}},
    consequences={
        "account.balance": "a payment or transfer confirmed from or to the account",
        "transaction": "a confirmed payment or transfer posting its lines",
        "transfer.created_at": "the app's clock when a payment or transfer is submitted for review",
        "transfer.confirmed_at": "the app's clock when it is confirmed",
    },
)
