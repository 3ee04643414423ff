from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="drive",
    title="Drive",
    category="productivity",
    description=(
        "A Google Drive-like file drive: nested folders holding text documents, spreadsheet-like tables, "
        "invoices with structured fields and PDFs. Create, edit, rename, move, star, share with people as "
        "viewer or editor, move to the trash and restore, and search by name and content."
    ),
    icon="▲",
    imitates="Google Drive",
    pages=(
        PageSpec(path="/", title="My Drive", description="Top-level folders and files; New folder, document or table."),
        PageSpec(path="/folder/2", title="A folder", description="Breadcrumbs, subfolders and files; rename, move or trash the folder."),
        PageSpec(path="/file/16", title="An invoice", description="Invoice page: vendor, dates, status, line items and total."),
        PageSpec(path="/file/1", title="A table", description="Spreadsheet grid with column totals; Edit opens one input per cell."),
        PageSpec(path="/file/1/edit", title="Edit a table", description="One input per cell ('Row 2, Amount'), add or delete rows and columns."),
        PageSpec(path="/recent", title="Recent", description="Files by last modification, newest first."),
        PageSpec(path="/starred", title="Starred", description="Files the user starred."),
        PageSpec(path="/shared", title="Shared with me", description="Files other people own and shared with the user."),
        PageSpec(path="/trash", title="Trash", description="Trashed files and folders; restore or delete forever."),
        PageSpec(path="/search?q=invoice", title="Search", description="Files and folders whose name or content matches."),
        PageSpec(path="/new?kind=doc", title="New", description="Create a folder, document or table."),
    ),
    consequences={
        "file.modified_at": "the app's clock when a file's name, content or location changes",
        "file.created_at": "the app's clock when a file is created",
        "folder.modified_at": "the app's clock when a folder is renamed or moved",
        "folder.created_at": "the app's clock when a folder is created",
    },
)
