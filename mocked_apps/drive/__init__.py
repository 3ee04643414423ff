"""Drive: a Google Drive-like file drive with folders, documents, tables, invoices and sharing."""
