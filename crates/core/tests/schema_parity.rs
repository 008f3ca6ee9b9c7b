//! The two schemas kept equal: after every migration, SQLite and PostgreSQL have the same tables,
//! the same columns in the same order with corresponding types and nullability, the same named
//! constraints (error mapping keys on them) and the same indexes.

use std::collections::BTreeMap;
use std::time::Duration;

use closewise_core::store::Store;
use closewise_testkit::{fresh_postgres_database, migrated_postgres_database, TempDir};
use sqlx::{Connection, Row};

/// Column: (name, type as the SQLite schema spells it, NOT NULL).
type Columns = Vec<(String, String, bool)>;

#[derive(Debug, Default, PartialEq)]
struct Schema {
    tables: BTreeMap<String, Columns>,
    /// Named UNIQUE and CHECK constraints, by table.
    constraints: BTreeMap<String, Vec<String>>,
    /// Indexes created with CREATE INDEX, by table.
    indexes: BTreeMap<String, Vec<String>>,
}

/// The SQLite type that stands for a PostgreSQL one in our migrations.
fn sqlite_spelling(pg_type: &str) -> String {
    match pg_type {
        "uuid" => "BLOB",
        "timestamp with time zone" => "TEXT",
        "text" | "character varying" | "jsonb" | "json" => "TEXT",
        "bigint" | "integer" | "smallint" => "INTEGER",
        "boolean" => "BOOLEAN",
        other => panic!("add the SQLite spelling of the PostgreSQL type {other:?} to this test"),
    }
    .to_owned()
}

/// SQLite reads every integer spelling as one type (INTEGER affinity).
fn integer_affinity(sqlite_type: String) -> String {
    match sqlite_type.as_str() {
        "BIGINT" | "INT" | "SMALLINT" => "INTEGER".into(),
        _ => sqlite_type,
    }
}

fn is_ours(table: &str) -> bool {
    !table.starts_with("_sqlx") && !table.starts_with("sqlite_")
}

async fn sqlite_schema(url: &str) -> Schema {
    let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
    let mut schema = Schema::default();
    let tables =
        sqlx::query("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .fetch_all(&mut c)
            .await
            .unwrap();
    let constraint = regex_lite_names();
    for t in tables {
        let name: String = t.get("name");
        if !is_ours(&name) {
            continue;
        }
        let sql: String = t.get("sql");
        let cols =
            sqlx::query("SELECT name, type, \"notnull\" AS nn, pk FROM pragma_table_info(?)")
                .bind(&name)
                .fetch_all(&mut c)
                .await
                .unwrap()
                .into_iter()
                .map(|r| {
                    let pk: i64 = r.get("pk");
                    let nn: i64 = r.get("nn");
                    (
                        r.get::<String, _>("name"),
                        integer_affinity(r.get::<String, _>("type").to_uppercase()),
                        nn == 1 || pk > 0,
                    )
                })
                .collect();
        schema.tables.insert(name.clone(), cols);
        let mut names = constraint(&sql);
        names.sort();
        schema.constraints.insert(name, names);
    }
    for r in sqlx::query(
        "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
    )
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        schema
            .indexes
            .entry(r.get("tbl_name"))
            .or_default()
            .push(r.get("name"));
    }
    schema
}

/// The names in `CONSTRAINT name` clauses of a CREATE TABLE statement.
fn regex_lite_names() -> impl Fn(&str) -> Vec<String> {
    |sql: &str| {
        let words: Vec<&str> = sql.split_whitespace().collect();
        words
            .windows(2)
            .filter(|w| w[0].eq_ignore_ascii_case("CONSTRAINT"))
            .map(|w| {
                w[1].trim_matches(|c: char| !c.is_alphanumeric() && c != '_')
                    .to_owned()
            })
            .collect()
    }
}

async fn postgres_schema(url: &str) -> Schema {
    let mut c = sqlx::PgConnection::connect(url).await.unwrap();
    let mut schema = Schema::default();
    let cols = sqlx::query(
        "SELECT table_name::text AS t, column_name::text AS c, data_type::text AS ty, is_nullable::text AS n \
         FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    for r in cols {
        let table: String = r.get("t");
        if !is_ours(&table) {
            continue;
        }
        let ty: String = r.get("ty");
        let nullable: String = r.get("n");
        schema.tables.entry(table).or_default().push((
            r.get("c"),
            sqlite_spelling(&ty),
            nullable == "NO",
        ));
    }
    for r in sqlx::query(
        "SELECT cl.relname::text AS t, co.conname::text AS n FROM pg_constraint co \
         JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace ns ON ns.oid = cl.relnamespace \
         WHERE ns.nspname = 'public' AND co.contype IN ('u', 'c') ORDER BY 1, 2",
    )
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        let table: String = r.get("t");
        if is_ours(&table) {
            schema
                .constraints
                .entry(table)
                .or_default()
                .push(r.get("n"));
        }
    }
    for table in schema.tables.keys() {
        schema.constraints.entry(table.clone()).or_default();
    }
    // Indexes that back no constraint (those come with PRIMARY KEY and UNIQUE).
    for r in sqlx::query(
        "SELECT i.tablename::text AS t, i.indexname::text AS n FROM pg_indexes i \
         WHERE i.schemaname = 'public' AND NOT EXISTS \
         (SELECT 1 FROM pg_constraint co WHERE co.conname = i.indexname) ORDER BY 2",
    )
    .fetch_all(&mut c)
    .await
    .unwrap()
    {
        let table: String = r.get("t");
        if is_ours(&table) {
            schema.indexes.entry(table).or_default().push(r.get("n"));
        }
    }
    schema
}

#[tokio::test]
async fn the_sqlite_and_postgres_schemas_have_the_same_tables_columns_constraints_and_indexes() {
    let dir = TempDir::new();
    let sqlite_url = format!("sqlite://{}/parity.db", dir.0.display());
    let pg_url = fresh_postgres_database("schema").await;
    for url in [&sqlite_url, &pg_url] {
        let store = Store::connect(url, Duration::from_secs(10)).await.unwrap();
        store.migrate().await.unwrap();
        store.close().await;
    }
    let sqlite = sqlite_schema(&sqlite_url).await;
    let postgres = postgres_schema(&pg_url).await;
    assert!(
        sqlite.tables.len() >= 8,
        "the migrations make the tables: {:?}",
        sqlite.tables.keys()
    );
    assert_eq!(
        sqlite.tables.keys().collect::<Vec<_>>(),
        postgres.tables.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (table, columns) in &sqlite.tables {
        assert_eq!(
            columns, &postgres.tables[table],
            "columns of {table} (name, type, NOT NULL)"
        );
    }
    assert_eq!(
        sqlite.constraints, postgres.constraints,
        "named UNIQUE and CHECK constraints"
    );
    assert_eq!(sqlite.indexes, postgres.indexes, "indexes");
}

/// The tests that start from the current schema on PostgreSQL copy a template the test kit
/// migrates once: the copy is what the store's own migrations make of an empty database, and the
/// store finds nothing to apply (its checksums agree with the template's).
#[tokio::test]
async fn a_copy_of_the_postgres_template_is_what_the_stores_migrations_make() {
    let migrated = fresh_postgres_database("schema").await;
    let store = Store::connect(&migrated, Duration::from_secs(10))
        .await
        .unwrap();
    store.migrate().await.unwrap();
    store.close().await;
    let copy = migrated_postgres_database("schema").await;
    let store = Store::connect(&copy, Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!(store.pending_migrations().await.unwrap(), vec![]);
    store.migrate().await.expect("the same checksums");
    store.close().await;
    assert_eq!(
        postgres_schema(&copy).await,
        postgres_schema(&migrated).await
    );
    let applied = |url: String| async move {
        let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
        let rows: Vec<(i64, String, Vec<u8>)> = sqlx::query_as(
            "SELECT version, description, checksum FROM _sqlx_migrations \
             WHERE success ORDER BY version",
        )
        .fetch_all(&mut c)
        .await
        .unwrap();
        rows
    };
    assert_eq!(applied(copy).await, applied(migrated).await);
}

#[test]
fn constraint_names_are_read_from_create_table() {
    let names = regex_lite_names()(
        "CREATE TABLE t (a TEXT CONSTRAINT t_a_key UNIQUE, b TEXT CONSTRAINT t_b_check CHECK (b <> ''))",
    );
    assert_eq!(names, ["t_a_key", "t_b_check"]);
}
