#include "server/store/pg_store.hpp"

#include <charconv>
#include <cstdio>
#include <pqxx/pqxx>
#include <random>
#include <unordered_map>

#include "server/store/detail.hpp"
#include "server/store/schema.hpp"

// libpqxx 6.4 (Debian 12's) leaks the PGresult of a statement whose connection breaks under it:
// turning the result into a pqxx::result asks the connection's encoding, which throws on a broken
// connection before the PGresult is owned (fixed in libpqxx 7). About 2 KiB per statement that
// an outage of PostgreSQL cuts; a sanitized build is told it is known, not ours. By the library's
// name: built without frame pointers, its frames end the allocation's stack.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TANBO_LSAN 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define TANBO_LSAN 1
#endif
#ifdef TANBO_LSAN
extern "C" __attribute__((used, visibility("default"))) const char* __lsan_default_suppressions() {
  return "leak:libpqxx\n";
}
#endif

namespace tanbo_server::server::store {

using namespace detail;

namespace {

// A double as its shortest exact text, so a rating reads back as it was written.
std::string exact(double x) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, end);
}

// The URL without its password, for logs.
std::string redacted(const std::string& url) {
  auto scheme = url.find("://");
  auto at = url.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme == std::string::npos || at == std::string::npos) return url;
  auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

// A database host that takes the connection but never answers would hold the store's one thread
// for good (libpq waits without end by default): 5 s, unless the URL says otherwise.
std::string with_connect_timeout(const std::string& url) {
  if (url.find("connect_timeout") != std::string::npos) return url;
  if (url.starts_with("postgresql://") || url.starts_with("postgres://"))
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=5";
  return url + " connect_timeout=5";  // keyword=value form
}

// Any constant: the key of the lock that keeps two nodes from migrating at once.
constexpr std::int64_t kMigrationLock = 0x74616e626f;

// The marks of groups older than this are no one's doubt any more (a writer asks about its own
// every 200 ms): deleted when a store opens. A writer deletes its own settled marks every
// kMarksKept groups.
constexpr std::int64_t kMarkLifetimeMs = 24 * 3600 * 1000;
constexpr std::int64_t kMarksKept = 1024;

// A COMMIT the database answered with a refusal that rolled the transaction back: a deferred
// constraint, a value, a serialization failure. Any other failure (a connection's, a shutdown's)
// leaves the outcome to be asked.
bool refused_commit(const std::string& sqlstate) {
  return sqlstate.starts_with("22") || sqlstate.starts_with("23") || sqlstate.starts_with("40");
}

// The statement that inserts group `n`'s mark of `writer` (hex: safe in the text) at `at`.
std::string insert_mark(const std::string& writer, std::int64_t n, std::int64_t at) {
  return "INSERT INTO store_groups (writer, n, at) VALUES ('" + writer + "', " + std::to_string(n) +
         ", " + std::to_string(at) + ")";
}

// A name for this connection's groups, unique among every node's: 64 random bits in hex.
std::string random_writer() {
  std::random_device rd;
  const std::uint64_t bits = (std::uint64_t(rd()) << 32) ^ rd();
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(bits));
  return buf;
}

}  // namespace

// One statement runner for the connection's life: transactions and savepoints are plain SQL, as
// SQLite's are, so that a group spans jobs.
struct PgStore::Pg {
  explicit Pg(const std::string& url) : conn(with_connect_timeout(url)), tx(conn) {}
  // The name of the statement prepared for `sql` (pqxx parses it on first use, and again on a
  // new connection), so that a text is parsed and planned once; null past kMaxStatements.
  const std::string* prepared(std::string_view sql) {
    auto it = names.find(sql);
    if (it != names.end()) return &it->second;
    if (names.size() >= kMaxStatements) return nullptr;
    std::string name = "s" + std::to_string(names.size());
    conn.prepare(name, str(sql));
    return &names.emplace(sql, std::move(name)).first->second;
  }

  pqxx::connection conn;
  pqxx::nontransaction tx;
  std::unordered_map<std::string, std::string, TextHash, std::equal_to<>> names;
};

PgStore::PgStore(std::unique_ptr<Pg> pg, std::string url, std::string described)
    : pg_(std::move(pg)),
      url_(std::move(url)),
      described_(std::move(described)),
      writer_(random_writer()) {}

PgStore::~PgStore() = default;

std::unique_ptr<PgStore> PgStore::open(const std::string& url, std::string& error) {
  const std::string where = "database " + redacted(url) + ": ";
  try {
    auto store =
        std::unique_ptr<PgStore>(new PgStore(std::make_unique<Pg>(url), url, redacted(url)));
    auto& tx = store->pg_->tx;
    tx.exec0("BEGIN");
    try {
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
      tx.exec0("CREATE TABLE IF NOT EXISTS tanbo_schema (version INTEGER NOT NULL)");
      auto v = tx.exec("SELECT version FROM tanbo_schema");
      int current = 0;
      if (v.empty())
        tx.exec0("INSERT INTO tanbo_schema (version) VALUES (0)");
      else
        current = v[0][0].as<int>();
      if (current > kSchemaVersion) {
        tx.exec0("ROLLBACK");
        error = where + newer_schema(current, kSchemaVersion);
        return nullptr;
      }
      for (int n = current + 1; n <= kSchemaVersion; ++n) tx.exec0(migration(Dialect::postgres, n));
      tx.exec_params0("UPDATE tanbo_schema SET version = $1", kSchemaVersion);
      tx.exec_params0("DELETE FROM store_groups WHERE at < $1", now_ms() - kMarkLifetimeMs);
      tx.exec0("COMMIT");
    } catch (const std::exception& e) {
      try {
        tx.exec0("ROLLBACK");
      } catch (...) {  // the connection is gone: nothing to roll back
      }
      error = where + "schema migration failed: " + e.what();
      return nullptr;
    }
    return store;
  } catch (const std::exception& e) {
    error = where + e.what();
    return nullptr;
  }
}

// --- Group commit: transactions and savepoints as plain SQL, as SqliteStore has them. ---

// A connection the database closed (it restarted, or was unreachable) is opened again before
// the next transaction; one that cannot be stays closed, and the write fails as before.
bool PgStore::connected() {
  if (pg_->conn.is_open()) return true;
  try {
    pg_ = std::make_unique<Pg>(url_);
    return true;
  } catch (const std::exception& e) {
    last_failure_ = std::string("reconnecting: ") + e.what();
    return false;
  }
}

bool PgStore::begin_group() {
  if (grouped_) return true;
  // The database out of reach is an outage like a failed write: unhealthy until a commit.
  if (!connected()) return note_failure(last_failure_), false;
  try {
    // One round trip: the group's mark, by which a COMMIT whose answer is lost is asked about
    // later; now and then the writer's older marks go, none of them in doubt (begin_group does
    // not run while a doubt waits).
    std::string sql = "BEGIN; " + insert_mark(writer_, ++groups_, now_ms());
    if (groups_ % kMarksKept == 0)
      sql += "; DELETE FROM store_groups WHERE writer = '" + writer_ + "' AND n < " +
             std::to_string(groups_);
    pg_->tx.exec(sql);
    grouped_ = true;
    group_lost_ = false;
  } catch (const std::exception& e) {
    grouped_ = false;
    note_failure(std::string("begin: ") + e.what());
    try {
      pg_->tx.exec0("ROLLBACK");  // a BEGIN whose mark failed leaves no transaction open
    } catch (...) {               // the connection is gone, and the transaction with it
    }
  }
  return grouped_;
}

bool PgStore::end_group(std::string& error) {
  if (!grouped_) return true;
  grouped_ = false;
  // in_doubt() speaks of this group alone: a doubt left from an earlier one (whose group held no
  // answer to wait) must not make this group's failure read as a doubt, settled by the other's
  // fate.
  doubt_.reset();
  bool sent = false, refused = false;
  try {
    if (group_lost_) throw StoreError("the transaction was lost to a failure inside it");
    // An aborted transaction would COMMIT as a ROLLBACK without an error: group_lost_ says so.
    sent = true;
    pg_->tx.exec0("COMMIT");
    note_commit();
    return true;
  } catch (const pqxx::sql_error& e) {
    error = e.what();
    refused = refused_commit(e.sqlstate());
  } catch (const std::exception& e) {
    error = e.what();
  }
  // The COMMIT sent and no refusal from the database heard: it may have written the group
  // (libpq does not always see the connection broken at once). Only the database can tell,
  // once it answers again (resolve_doubt), on a new connection: this one may hold nothing more.
  if (sent && !refused) {
    doubt_ = groups_;
    pg_->conn.disconnect();
    note_failure("commit, its outcome unknown: " + error);
    return false;
  }
  try {
    pg_->tx.exec0("ROLLBACK");
  } catch (...) {  // the connection is gone, and the transaction with it
  }
  group_failed_ = false;
  note_failure("commit: " + error);
  return false;
}

// The group's mark says. Present: the group committed. Absent: its transaction aborted, or is
// still running on a connection the database has not yet seen broken; inserting the same mark
// tells the two apart, since it waits for that transaction to end (at most lock_timeout, then
// the question is asked again). The probe is rolled back: it only asks.
std::optional<bool> PgStore::resolve_doubt() {
  if (!doubt_) return false;
  if (!connected()) return std::nullopt;
  try {
    const auto r =
        pg_->tx.exec("BEGIN; SET LOCAL lock_timeout = '1s'; " + insert_mark(writer_, *doubt_, 0) +
                     " ON CONFLICT DO NOTHING RETURNING n");
    pg_->tx.exec0("ROLLBACK");
    doubt_.reset();
    note_commit();
    return r.empty();  // the mark was there already: written
  } catch (const std::exception& e) {
    try {
      pg_->tx.exec0("ROLLBACK");
    } catch (...) {  // the connection is gone, and the probe with it
    }
    note_failure(std::string("asking how a commit ended: ") + e.what());
    return std::nullopt;
  }
}

// One transaction around body(), or one savepoint inside the group's; a refusal from body rolls
// it back like a failure does. PostgreSQL aborts a whole transaction on an error, so a failed
// write must roll back to its savepoint before the group can go on.
WriteResult PgStore::transact(std::string_view what, const std::function<WriteResult()>& body) {
  const bool grouped = grouped_;
  auto failed = [&](std::string message) {
    note_failure(str(what) + ": " + message);
    return refuse(Code::failed, last_failure_);
  };
  if (grouped && group_lost_) return failed("the group's transaction was lost");
  // Not a failure of its own: the one that keeps groups from beginning was noted.
  if (!grouped && refuse_lone_)
    return refuse(Code::failed, str(what) + ": no group can begin now; written again later");
  if (!grouped && !connected()) return failed("no connection to the database");
  try {
    pg_->tx.exec0(grouped ? "SAVEPOINT w" : "BEGIN");
  } catch (const std::exception& e) {
    if (grouped) group_lost_ = true;
    return failed(e.what());
  }
  WriteResult r;
  try {
    r = body();
  } catch (const pqxx::unique_violation& e) {
    r = refuse(Code::duplicate, str(what) + ": " + e.what());
  } catch (const pqxx::foreign_key_violation& e) {
    r = refuse(Code::not_found, str(what) + ": " + e.what());
  } catch (const pqxx::integrity_constraint_violation& e) {
    r = refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const pqxx::data_exception& e) {  // a value PostgreSQL cannot hold (a NUL byte)
    r = refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const Json::exception& e) {  // a JSON value that cannot be written (bad UTF-8)
    r = refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const std::exception& e) {
    r = refuse(Code::failed, str(what) + ": " + e.what());
  }
  try {
    if (r.ok())
      pg_->tx.exec0(grouped ? "RELEASE w" : "COMMIT");
    else
      pg_->tx.exec0(grouped ? "ROLLBACK TO w; RELEASE w" : "ROLLBACK");
  } catch (const std::exception& e) {
    if (grouped) {
      group_lost_ = true;
    } else {
      try {
        pg_->tx.exec0("ROLLBACK");
      } catch (...) {  // the connection is gone
      }
    }
    return failed(e.what());
  }
  if (r.code == Code::failed)
    note_failure(r.message);
  else if (r.ok() && !grouped)
    note_commit();
  return r;
}

// A read: a database failure is a StoreError; inside a group it also dooms the transaction.
void PgStore::reading(std::string_view what, const std::function<void()>& body) {
  if (!grouped_ && !connected()) {
    note_failure(str(what) + ": " + last_failure_);
    throw StoreError(last_failure_);
  }
  try {
    body();
  } catch (const pqxx::failure& e) {
    if (grouped_) group_lost_ = true;
    note_failure(str(what) + ": " + e.what());
    throw StoreError(last_failure_);
  }
}

// --- The statement runner of the store logic written once ---

std::vector<Store::SqlRow> PgStore::query(std::string_view sql,
                                          const std::vector<SqlValue>& params) {
  std::vector<std::string> texts(params.size());
  std::vector<const char*> values(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (sql_null(params[i])) continue;  // a null pointer is NULL
    if (auto d = std::get_if<double>(&params[i]))
      texts[i] = exact(*d);
    else
      texts[i] = sql_text(params[i]);
    values[i] = texts[i].c_str();
  }
  const auto bound = pqxx::prepare::make_dynamic_params(values);
  const std::string* name = pg_->prepared(sql);
  auto result = name ? pg_->tx.exec_prepared(*name, bound) : pg_->tx.exec_params(str(sql), bound);
  changes_ = result.affected_rows();
  std::vector<SqlRow> rows;
  for (const auto& r : result) {
    SqlRow row;
    for (const auto& f : r) {
      if (f.is_null()) {
        row.emplace_back(nullptr);
        continue;
      }
      // Integers and real numbers by their column type (INT8 20, INT4 23, INT2 21, FLOAT8 701).
      const auto type = f.type();
      if (type == 20 || type == 21 || type == 23)
        row.emplace_back(f.as<std::int64_t>());
      else if (type == 700 || type == 701)
        row.emplace_back(f.as<double>());
      else if (type == 16)
        row.emplace_back(std::int64_t(f.as<bool>()));
      else
        row.emplace_back(std::string(f.c_str()));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tanbo_server::server::store
