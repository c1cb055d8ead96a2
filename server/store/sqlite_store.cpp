#include "server/store/sqlite_store.hpp"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "server/store/detail.hpp"
#include "server/store/schema.hpp"

namespace tanbo_server::server::store {

using namespace detail;

// The statements prepared so far, by their text: parsing SQL was a third of the store thread's
// time per action.
struct SqliteStore::Statements {
  std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>, TextHash, std::equal_to<>>
      by_text;
};

namespace {

// A new database starts as an empty file only its owner may read or write, whatever the umask:
// SQLite gives the -wal and -shm files it makes beside it the database file's mode. False, with
// `error`, when it can be neither made nor found.
bool create_private(const std::filesystem::path& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::fchmod(fd, 0600);  // open() took the umask off: a strict one could leave it unwritable
    ::close(fd);
    return true;
  }
  if (errno == EEXIST) return true;  // an existing database keeps its mode
  error = std::string("cannot create it: ") + std::strerror(errno);
  return false;
}

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<SQLite::Database> db, std::filesystem::path path)
    : db_(std::move(db)), statements_(std::make_unique<Statements>()), path_(std::move(path)) {}

SqliteStore::~SqliteStore() = default;

std::unique_ptr<SqliteStore> SqliteStore::open(const std::filesystem::path& path,
                                               Durability durability, std::string& error) {
  const std::string where = "database " + path.string() + ": ";
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return error = where + "cannot create its directory: " + ec.message(), nullptr;
  if (!create_private(path, error)) return error = where + error, nullptr;
  try {
    // No mutex of its own: the connection is used by one thread at a time (the StoreWorker's,
    // or whoever holds the store before handing it over), and SQLite's serialized mode took a
    // lock at each of the forty-odd calls an action's write makes.
    auto db = std::make_unique<SQLite::Database>(
        path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX, 5000);
    std::string mode = db->execAndGet("PRAGMA journal_mode = WAL").getString();
    if (mode != "wal")
      return error = where + "cannot use WAL mode (journal_mode " + mode + ")", nullptr;
    // NORMAL in WAL mode: a commit survives a process crash; FULL also fsyncs it for power loss.
    db->exec(durability == Durability::full ? "PRAGMA synchronous = FULL"
                                            : "PRAGMA synchronous = NORMAL");
    db->exec("PRAGMA foreign_keys = ON");
    // 32 MiB of page cache (SQLite's default is 2): a thousand rooms playing append to as many
    // places of the action log, which the default cache could not hold, so that each append
    // read its pages back from the file (docs/performance.md, "Cost per move").
    db->exec("PRAGMA cache_size = -32768");
    // A checkpoint every 10,000 WAL pages (40 MiB), not SQLite's 1,000: a checkpoint copies each
    // page once however many of its versions the WAL holds, and a thousand rooms rewrite the same
    // thousand leaves of the action log, so that copying ten times less often copies nearly ten
    // times fewer pages (docs/performance.md, "Cost per move").
    db->exec("PRAGMA wal_autocheckpoint = 10000");
    if (!migrate(*db, kSchemaVersion, error)) return error = where + error, nullptr;
    return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db), path));
  } catch (const std::exception& e) {
    error = where + e.what();
    return nullptr;
  }
}

// --- Group commit ---

namespace {

// A write inside a group: released when it succeeded, otherwise rolled back alone. SQLite may
// already have rolled the whole transaction back (an I/O error, a full disk); end_group sees that.
// `run` executes a prepared statement by its SQL.
template <class Run>
class Savepoint {
 public:
  explicit Savepoint(Run run) : run_(run) { run_("SAVEPOINT w"); }
  ~Savepoint() {
    if (released_) return;
    try {
      run_("ROLLBACK TO w");
      run_("RELEASE w");
    } catch (...) {  // the transaction is gone already: nothing left to undo
    }
  }
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  void release() {
    run_("RELEASE w");
    released_ = true;
  }

 private:
  Run run_;
  bool released_ = false;
};

}  // namespace

sqlite3* SqliteStore::handle() const { return db_->getHandle(); }

SQLite::Statement& SqliteStore::statement(std::string_view sql) {
  auto& kept = statements_->by_text;
  auto it = kept.find(sql);
  if (it == kept.end()) {
    // Nothing holds a statement between two calls, so dropping them all is safe.
    if (kept.size() >= kMaxStatements) kept.clear();
    return *kept.emplace(sql, std::make_unique<SQLite::Statement>(*db_, str(sql))).first->second;
  }
  // A failed step leaves its error in the statement; tryReset clears it without rethrowing.
  it->second->tryReset();
  it->second->clearBindings();
  return *it->second;
}

bool SqliteStore::begin_group() {
  if (grouped_) return true;
  try {
    statement("BEGIN IMMEDIATE").exec();
    grouped_ = true;
  } catch (const std::exception&) {
    grouped_ = false;
  }
  return grouped_;
}

bool SqliteStore::end_group(std::string& error) {
  if (!grouped_) return true;
  grouped_ = false;
  try {
    if (sqlite3_get_autocommit(db_->getHandle()))
      throw StoreError("the transaction was rolled back by a failure inside it");
    statement("COMMIT").exec();
    note_commit();
    return true;
  } catch (const std::exception& e) {
    error = e.what();
  }
  // A refused COMMIT (a commit hook, SQLITE_BUSY) may leave the transaction open.
  if (!sqlite3_get_autocommit(db_->getHandle())) {
    try {
      db_->exec("ROLLBACK");
    } catch (...) {  // rolled back already
    }
  }
  group_failed_ = false;
  note_failure("commit: " + error);
  return false;
}

WriteResult SqliteStore::transact(std::string_view what, const std::function<WriteResult()>& body) {
  return write(what, body, false);
}

WriteResult SqliteStore::transact_one(std::string_view what,
                                      const std::function<WriteResult()>& body) {
  return write(what, body, true);
}

// One transaction around body(), or one savepoint inside the group's; a refusal from body rolls
// it back like a failure does. A body of one statement needs no savepoint: SQLite rolls a failed
// statement back by itself and leaves the transaction open.
WriteResult SqliteStore::write(std::string_view what, const std::function<WriteResult()>& body,
                               bool one) {
  try {
    if (grouped_) {
      if (sqlite3_get_autocommit(db_->getHandle())) {
        note_failure(str(what) + ": the group's transaction was lost");
        return refuse(Code::failed, last_failure_);
      }
      if (one) return body();
      Savepoint sp([this](const char* sql) { statement(sql).exec(); });
      WriteResult r = body();
      if (r.ok()) sp.release();
      return r;
    }
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    WriteResult r = body();
    if (r.ok()) tx.commit(), note_commit();
    return r;
  } catch (const SQLite::Exception& e) {
    const std::string message = str(what) + ": " + e.what();
    switch (e.getExtendedErrorCode()) {
      case SQLITE_CONSTRAINT_PRIMARYKEY:
      case SQLITE_CONSTRAINT_UNIQUE:
        return refuse(Code::duplicate, message);
      case SQLITE_CONSTRAINT_FOREIGNKEY:
        return refuse(Code::not_found, message);
      default:
        break;
    }
    if (e.getErrorCode() == SQLITE_CONSTRAINT) return refuse(Code::invalid, message);
    note_failure(message);
    return refuse(Code::failed, message);
  } catch (const Json::exception& e) {  // a JSON value that cannot be written (bad UTF-8)
    return refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const std::exception& e) {
    note_failure(str(what) + ": " + e.what());
    return refuse(Code::failed, last_failure_);
  }
}

// --- The statement runner of the store logic written once ---

std::vector<Store::SqlRow> SqliteStore::query(std::string_view sql,
                                              const std::vector<SqlValue>& params) {
  SQLite::Statement& q = statement(sql);
  // Reset however this ends, so that no read stays open on the file.
  struct Reset {
    SQLite::Statement& q;
    ~Reset() { q.tryReset(); }
  } reset{q};
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int at = int(i) + 1;
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::nullptr_t>)
            q.bind(at);
          else
            q.bind(at, v);
        },
        params[i]);
  }
  std::vector<SqlRow> rows;
  while (q.executeStep()) {
    SqlRow row;
    row.reserve(std::size_t(q.getColumnCount()));
    for (int c = 0; c < q.getColumnCount(); ++c) {
      auto col = q.getColumn(c);
      if (col.isNull())
        row.emplace_back(nullptr);
      else if (col.isInteger())
        row.emplace_back(col.getInt64());
      else if (col.isFloat())
        row.emplace_back(col.getDouble());
      else
        row.emplace_back(col.getString());
    }
    rows.push_back(std::move(row));
  }
  changes_ = sqlite3_changes64(db_->getHandle());
  return rows;
}

void SqliteStore::reading(std::string_view what, const std::function<void()>& body) {
  try {
    body();
  } catch (const SQLite::Exception& e) {
    note_failure(str(what) + ": " + e.what());
    throw StoreError(last_failure_);
  }
}

}  // namespace tanbo_server::server::store
