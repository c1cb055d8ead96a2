// StoreIdentities: every identity in memory from the start, and one another node made since then
// looked up in the store on a miss.
#include "server/identity/store_identities.hpp"
#include "engine/core/sha256.hpp"
#include "server/store/worker.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using store::testing::Backend;

namespace {

std::string hash_of(std::string_view token) { return engine::to_hex(engine::sha256(token)); }

}  // namespace

TEST_CASE("identities: one written to the store after the start is found by token and by id",
          "[server][identity]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (store::testing::unavailable(backend)) return;
  CAPTURE(backend);
  store::testing::TestDb db(backend);
  auto worker = std::make_shared<store::StoreWorker>(db.open());
  StoreIdentities identities(worker, true);  // shared, as a cluster's nodes are
  StoreIdentities alone(worker);             // a server alone on its store
  const auto before = identities.size();
  // Another node's connection to the same database makes the identity.
  REQUIRE(db.open()->create_identity("p-later", "Later", hash_of("later token")).ok());

  SECTION("by token, then kept") {
    auto found = identities.find("later token");
    REQUIRE(found);
    CHECK(*found == Identity{"p-later", "Later"});
    CHECK(identities.size() == before + 1);
    CHECK(identities.by_id("p-later") == found);
  }
  SECTION("by id, then kept") {
    auto found = identities.by_id("p-later");
    REQUIRE(found);
    CHECK(*found == Identity{"p-later", "Later"});
    CHECK(identities.size() == before + 1);
    CHECK(identities.find("later token") == found);
  }
  SECTION("what the store does not hold either is unknown, and nothing is kept") {
    CHECK_FALSE(identities.find("never issued"));
    CHECK_FALSE(identities.by_id("p-ghost"));
    CHECK(identities.size() == before);
  }
  SECTION("a server alone never asks the store about a miss") {
    CHECK_FALSE(alone.find("later token"));
    CHECK_FALSE(alone.by_id("p-later"));
    CHECK(alone.size() == before);
  }
  SECTION("a stopped store cannot tell a token: never called unknown") {
    worker->stop();
    CHECK_THROWS_AS(identities.find("later token"), IdentitiesUnavailable);
    CHECK_FALSE(identities.by_id("p-later"));
  }
  SECTION("a new guest is refused while the store cannot keep its token") {
    // Given anyway, the token would be unknown to every node that asks the store.
    worker->stop();
    CHECK_THROWS_AS(identities.create_guest("Newcomer", "a browser"), IdentitiesUnavailable);
  }
  worker->stop();
}

TEST_CASE("identities: a guest made here is found without the store, and survives a restart",
          "[server][identity]") {
  store::testing::TestDb db(Backend::sqlite);
  NewIdentity made;
  std::size_t size = 0;
  {
    auto worker = std::make_shared<store::StoreWorker>(db.open());
    StoreIdentities identities(worker);
    made = identities.create_guest("Ann", "");
    CHECK(identities.find(made.token) == made.identity);
    CHECK(identities.by_id(made.identity.id) == made.identity);
    size = identities.size();
    worker->stop();
  }
  auto worker = std::make_shared<store::StoreWorker>(db.open());
  StoreIdentities identities(worker);
  CHECK(identities.size() == size);
  CHECK(identities.find(made.token) == made.identity);
  worker->stop();
}
