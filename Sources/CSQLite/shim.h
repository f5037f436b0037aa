#include <sqlite3.h>

/// A virtual table as SQLite holds it, with a pointer to the Swift object that serves it.
typedef struct CogVirtualTable {
    sqlite3_vtab base;
    void *table;
} CogVirtualTable;

/// A cursor over a virtual table, with a pointer to the Swift object that walks it.
typedef struct CogVirtualCursor {
    sqlite3_vtab_cursor base;
    void *cursor;
} CogVirtualCursor;
