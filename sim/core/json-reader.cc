#include "sim/core/json-reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

namespace incsim
{

using nlohmann::json;

namespace
{

/// A character iterator that counts what the parser has read, so that SAX events, which carry
/// no position, can be located: a key event comes right after its closing quote.
class CountingIterator
{
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* position, size_t* consumed)
        : m_position(position),
          m_consumed(consumed)
    {
    }

    reference operator*() const { return *m_position; }
    CountingIterator& operator++()
    {
        ++m_position;
        ++*m_consumed;
        return *this;
    }
    bool operator==(const CountingIterator& other) const { return m_position == other.m_position; }
    bool operator!=(const CountingIterator& other) const { return m_position != other.m_position; }

  private:
    const char* m_position;
    size_t* m_consumed;
};

struct TextPosition
{
    size_t line = 1;
    size_t column = 1;
};

TextPosition
Locate(const std::string& text, size_t offset)
{
    offset = std::min(offset, text.size());
    TextPosition position;
    position.line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
    size_t lineStart = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    position.column = offset - lineStart + 1;
    return position;
}

/// nlohmann says "syntax error while parsing object key - unexpected '}'; expected string
/// literal"; users read "unexpected '}'; expected string literal (while parsing object key)".
std::string
SyntaxMessage(const std::string& what)
{
    std::string text = what;
    size_t column = text.find(", column ");
    if (column != std::string::npos)
    {
        size_t colon = text.find(": ", column);
        if (colon != std::string::npos)
        {
            text = text.substr(colon + 2);
        }
    }
    const std::string whilePrefix = "syntax error while parsing ";
    if (text.compare(0, whilePrefix.size(), whilePrefix) == 0)
    {
        std::string rest = text.substr(whilePrefix.size());
        size_t dash = rest.find(" - ");
        if (dash != std::string::npos)
        {
            return rest.substr(dash + 3) + " (while parsing " + rest.substr(0, dash) + ")";
        }
    }
    const std::string prefix = "syntax error ";
    if (text.compare(0, prefix.size(), prefix) == 0)
    {
        return text.substr(prefix.size());
    }
    return text;
}

/// Builds the document as nlohmann's own DOM parser does, keeping the JSON path of the value
/// being read so that duplicate keys, number overflows and deep nesting can be reported there.
class DocumentBuilder : public nlohmann::json_sax<json>
{
  public:
    DocumentBuilder(const std::string& text, const std::string& file, const size_t& consumed)
        : m_text(text),
          m_file(file),
          m_consumed(consumed)
    {
    }

    json Take() { return std::move(m_root); }

    bool null() override { return Add(nullptr); }
    bool boolean(bool value) override { return Add(value); }
    bool number_integer(number_integer_t value) override { return Add(value); }
    bool number_unsigned(number_unsigned_t value) override { return Add(value); }
    bool number_float(number_float_t value, const string_t&) override { return Add(value); }
    bool string(string_t& value) override { return Add(std::move(value)); }
    bool binary(binary_t& value) override { return Add(json::binary(std::move(value))); }

    bool start_object(std::size_t) override { return Open(json::object(), true); }
    bool start_array(std::size_t) override { return Open(json::array(), false); }
    bool end_object() override { return Close(); }
    bool end_array() override { return Close(); }

    bool key(string_t& key) override
    {
        Frame& top = m_stack.back();
        top.key = key;
        const size_t start = KeyStart();
        auto [first, inserted] = top.keyOffsets.emplace(key, start);
        if (!inserted)
        {
            const TextPosition earlier = Locate(m_text, first->second);
            Fail(start, Path(),
                 fmt::format("duplicate key {} (first given at line {}, column {}); a key may "
                             "appear once in an object",
                             json(key).dump(-1, ' ', false, json::error_handler_t::replace),
                             earlier.line, earlier.column));
        }
        return true;
    }

    bool parse_error(std::size_t position,
                     const std::string& lastToken,
                     const nlohmann::detail::exception& error) override
    {
        constexpr int kNumberOverflow = 406;
        if (error.id == kNumberOverflow)
        {
            Fail(position - std::min(position, lastToken.size()), Path(),
                 fmt::format("number {} is out of range: a JSON number here must fit in a "
                             "double (magnitude below about 1.8e308)",
                             lastToken));
        }
        // `position` counts the characters read, so the error was seen at position - 1 (or
        // just past the end for a truncated text). An unexpected string or number is only seen
        // once read whole, so point at its first character instead, as compilers do. The
        // lexer spells control characters as <U+XXXX>; then its length is not the text's.
        std::string message = SyntaxMessage(error.what());
        size_t offset = position == 0 ? 0 : position - 1;
        bool wholeToken = message.rfind("unexpected string literal", 0) == 0 ||
                          message.rfind("unexpected number literal", 0) == 0;
        if (wholeToken && !lastToken.empty() && lastToken.size() <= position &&
            lastToken.find("<U+") == std::string::npos)
        {
            offset = position - lastToken.size();
        }
        const TextPosition at = Locate(m_text, offset);
        throw JsonSyntaxError(m_file, at.line, at.column, message);
    }

  private:
    struct Frame
    {
        json* value = nullptr;
        bool object = false;
        std::string key;                       // objects: the key being read
        std::map<std::string, size_t> keyOffsets; // objects: where each key was given
    };

    template <typename Value>
    json* Insert(Value&& value)
    {
        if (m_stack.empty())
        {
            m_root = json(std::forward<Value>(value));
            return &m_root;
        }
        Frame& top = m_stack.back();
        if (top.object)
        {
            json& slot = (*top.value)[top.key];
            slot = json(std::forward<Value>(value));
            return &slot;
        }
        top.value->push_back(json(std::forward<Value>(value)));
        return &top.value->back();
    }

    template <typename Value>
    bool Add(Value&& value)
    {
        Insert(std::forward<Value>(value));
        return true;
    }

    bool Open(json container, bool object)
    {
        if (m_stack.size() >= kMaxJsonDepth)
        {
            Fail(m_consumed == 0 ? 0 : m_consumed - 1, Path(),
                 fmt::format("arrays and objects nest deeper than {} levels", kMaxJsonDepth));
        }
        Frame frame;
        frame.value = Insert(std::move(container));
        frame.object = object;
        m_stack.push_back(std::move(frame));
        return true;
    }

    bool Close()
    {
        m_stack.pop_back();
        return true;
    }

    /// The JSON pointer of the value being read: the current key of every open object, the
    /// index of the open (or next) item of every array.
    std::string Path() const
    {
        json::json_pointer pointer;
        for (size_t i = 0; i < m_stack.size(); ++i)
        {
            const Frame& frame = m_stack[i];
            if (frame.object)
            {
                pointer /= frame.key;
            }
            else
            {
                const bool open = i + 1 < m_stack.size();
                pointer /= frame.value->size() - (open ? 1 : 0);
            }
        }
        return pointer.to_string();
    }

    /// Offset of the opening quote of the key just read: its closing quote was the last
    /// character read; walk back to the first quote that no backslash escapes.
    size_t KeyStart() const
    {
        if (m_consumed == 0 || m_consumed > m_text.size() || m_text[m_consumed - 1] != '"')
        {
            return m_consumed;
        }
        for (size_t i = m_consumed - 1; i-- > 0;)
        {
            if (m_text[i] != '"')
            {
                continue;
            }
            size_t backslashes = 0;
            while (backslashes < i && m_text[i - 1 - backslashes] == '\\')
            {
                ++backslashes;
            }
            if (backslashes % 2 == 0)
            {
                return i;
            }
        }
        return m_consumed;
    }

    [[noreturn]] void Fail(size_t offset, const std::string& path, const std::string& message) const
    {
        const TextPosition at = Locate(m_text, offset);
        throw JsonTextError(m_file, at.line, at.column, path, message);
    }

    const std::string& m_text;
    const std::string& m_file;
    const size_t& m_consumed;
    json m_root;
    std::vector<Frame> m_stack;
};

} // namespace

JsonTextError::JsonTextError(const std::string& file,
                             size_t line,
                             size_t column,
                             const std::string& jsonPath,
                             const std::string& message)
    : InputError(file, jsonPath, message),
      m_what(fmt::format("{}:{}:{}: {}{}", file, line, column,
                         jsonPath.empty() ? "" : jsonPath + ": ", message)),
      m_line(line),
      m_column(column)
{
}

JsonSyntaxError::JsonSyntaxError(const std::string& file,
                                 size_t line,
                                 size_t column,
                                 const std::string& message)
    : JsonTextError(file, line, column, "", "JSON syntax error: " + message)
{
}

nlohmann::json
ParseJsonText(const std::string& text, const std::string& file)
{
    size_t consumed = 0;
    DocumentBuilder builder(text, file, consumed);
    const CountingIterator begin(text.data(), &consumed);
    const CountingIterator end(text.data() + text.size(), &consumed);
    json::sax_parse(begin, end, &builder);
    return builder.Take();
}

nlohmann::json
ReadJsonFile(const std::string& path)
{
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored))
    {
        throw InputError(path, "", "cannot open file: it is a directory");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw InputError(path, "", std::string("cannot open file: ") + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
    }
    return ParseJsonText(text.str(), path);
}

} // namespace incsim
