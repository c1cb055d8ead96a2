#include "server/api/documents.hpp"

#include "server/net/static_files.hpp"

namespace tanbo_server::server::api {

const Document* find_document(std::string_view path) {
  for (const Document& d : documents())
    if (d.path == path) return &d;
  return nullptr;
}

Response document_response(const http::request<http::string_body>& req, const Document& doc) {
  const bool unchanged = static_files::none_match_names(req[http::field::if_none_match], doc.etag);
  Response res{unchanged ? http::status::not_modified : http::status::ok, req.version()};
  res.set(http::field::server, "tanbo-server");
  res.set(http::field::etag, doc.etag);
  res.set(http::field::cache_control, "no-cache");
  res.keep_alive(req.keep_alive());
  if (unchanged) return res;
  res.set(http::field::content_type, "application/json");
  res.body() = std::string(doc.text);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();  // Content-Length stays the GET's
  return res;
}

}  // namespace tanbo_server::server::api
