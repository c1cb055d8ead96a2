// Fencing in a shared database: a node that took a room over raised its epoch, and the journal
// writes of the node that lost it (frozen past its lease, say) are refused, never stored.
#include <catch2/catch.hpp>

#include "engine/core/match.hpp"
#include "server/rooms/store_journal.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::store::testing;
using Code = tanbo_server::server::store::WriteResult::Code;

namespace fencing_test {

// The first legal action of the sample room's game, by the seat that must decide.
JournalEntry first_action(const tanbo_server::server::store::RoomRow& row, std::int64_t epoch) {
  tanbo_server::server::store::LoadedRoom head{row, {}, 0};
  tanbo_server::engine::Problems problems;
  auto match = tanbo_server::engine::Match::start(head.record(), problems);
  REQUIRE(match);
  JournalEntry e{JournalEntry::Kind::action, row.id, 1, match->game().pending().seat,
                 match->legal_json().at(0)};
  e.epoch = epoch;
  return e;
}

// One write as the store worker makes it: inside a group, committed after.
tanbo_server::server::store::WriteResult grouped(tanbo_server::server::store::Store& s,
                                                 const JournalEntry& e) {
  REQUIRE(s.begin_group());
  auto r = StoreJournal::write(s, e, 1'800'000'000'000);
  std::string error;
  REQUIRE(s.end_group(error));
  return r;
}

}  // namespace fencing_test

TEST_CASE("a room taken over refuses the writes of its last owner", "[store][fencing]") {
  if (unavailable(Backend::postgres)) return;
  TestDb db(Backend::postgres);
  auto old_owner = db.open();
  auto new_owner = db.open();
  const auto row = sample_room("fenced");
  REQUIRE(old_owner->create_room(row).ok());
  REQUIRE(old_owner->shared());

  std::int64_t epoch = -1;
  REQUIRE(new_owner->take_room("fenced", epoch).ok());
  CHECK(epoch == 1);
  auto loaded = new_owner->load_room("fenced", {});
  REQUIRE(loaded);
  CHECK(loaded->epoch == 1);

  // The old owner, awake again, writes version 1 with the epoch it had: refused, not stored.
  auto stale = fencing_test::grouped(*old_owner, fencing_test::first_action(row, 0));
  CHECK(stale.code == Code::fenced);
  CHECK(db.count("SELECT COUNT(*) FROM actions") == 0);
  // Outside a group the check could not hold the row until the write: it waits for one.
  CHECK(StoreJournal::write(*old_owner, fencing_test::first_action(row, 0), 1).code ==
        Code::failed);
  // The new owner writes the same version with its own epoch.
  CHECK(fencing_test::grouped(*new_owner, fencing_test::first_action(row, 1)).ok());
  CHECK(db.count("SELECT COUNT(*) FROM actions") == 1);
  CHECK(new_owner->load_room("fenced", {})->version == 1);
}

TEST_CASE("a database one node owns alone checks no epoch", "[store][fencing]") {
  TestDb db(Backend::sqlite);
  auto s = db.open();
  const auto row = sample_room("alone");
  REQUIRE(s->create_room(row).ok());
  CHECK_FALSE(s->shared());
  CHECK(StoreJournal::write(*s, fencing_test::first_action(row, 7), 1).ok());
}
