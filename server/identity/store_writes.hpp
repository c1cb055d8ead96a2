#pragma once
// How StoreIdentities' writes, run on the store's thread, report a refusal or a failure.
#include <string>
#include <string_view>

#include "server/store/store.hpp"

namespace tanbo_server::server::store_writes {

// A refused or failed write is thrown on the worker: it logs it and /healthz turns degraded.
inline void require(const store::WriteResult& r, std::string_view what) {
  if (!r.ok())
    throw store::StoreError(std::string(what) + " (" + std::string(store::to_string(r.code)) +
                            "): " + r.message);
}

}  // namespace tanbo_server::server::store_writes
