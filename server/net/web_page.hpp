#pragma once
// The browser client's page as the server answers it at `/`: index.html with its links under the
// files' version prefix, the modules of its start-up preloaded and the reader's language named,
// so that a first visit asks for everything at once instead of discovering the modules one
// import at a time (docs/web.md, "Serving"). Text in, text out: static_files.cpp owns the files.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo_server::server::web_page {

// The modules `source` (the module at `own_path`, relative to the web folder, '/'-separated)
// imports statically, resolved against its folder, in the order written: `import ... from
// './x.js'`, `export ... from '../y.js'` and `import './z.js'`. Only relative specifiers
// (starting "./" or "../") that stay inside the folder; `import()` is a lazy load and is left
// out. A lexical scan, not a parser: a specifier in a comment or a string counts too, which costs
// at most a needless preload of a file that exists (the caller keeps only those).
std::vector<std::string> static_imports(std::string_view source, std::string_view own_path);

// The `src` of each `<script type="module" src="...">` of `html`, as written.
std::vector<std::string> module_scripts(std::string_view html);

// `html` with every `src="X"` and `href="X"` whose X is a relative path (no scheme, not starting
// with '/', '#', '?' or '.') that `exists(X)` made `prefix` + X.
std::string prefix_links(std::string_view html, std::string_view prefix,
                         const std::function<bool(std::string_view)>& exists);

// `html` with `text` inserted just before `</head>` (at the end when there is none).
std::string insert_before_head_end(std::string_view html, std::string_view text);

// `html` with the `lang` attribute of its `<html>` tag set to `lang` (added when missing).
std::string set_html_lang(std::string_view html, std::string_view lang);

// The language an Accept-Language header asks for among `languages` (lowercase base tags such as
// "fr"), by its q-values, comparing the base of each tag ("fr-CA" is "fr"); `fallback` when none.
std::string pick_language(std::string_view accept_language,
                          const std::vector<std::string>& languages, std::string_view fallback);

}  // namespace tanbo_server::server::web_page
