#pragma once
// The API's own documents, compiled into the binary so that it always describes itself: its
// OpenAPI description at /api/openapi.json (protocol/openapi.json) and the protocol's message
// schemas it refers to at /api/schema/<file> (protocol/schema/*.json), each byte for byte.
// server/CMakeLists.txt writes their text into a generated source at build time, again whenever
// a file changes; nothing is read from disk at run time.
#include <span>
#include <string_view>

#include "server/api/serve.hpp"

namespace tanbo_server::server::api {

struct Document {
  std::string_view path;  // where it is served
  std::string_view text;
  std::string_view etag;  // quoted: the first 16 hex digits of the text's SHA-256
};

// Defined in the generated source.
std::span<const Document> documents();

// The document served at `path`, or null.
const Document* find_document(std::string_view path);

// A GET or HEAD of a document: 200 application/json, revalidated at each use like the web
// folder's files (Cache-Control: no-cache, its ETag); 304 when If-None-Match names the ETag.
Response document_response(const http::request<http::string_body>& req, const Document& doc);

}  // namespace tanbo_server::server::api
