# Writes OUT with the source tree's git sha, rewriting it only when it changes so that an
# unchanged tree rebuilds nothing. A tree with uncommitted changes (to tracked files, or new
# files git does not ignore) gets "-dirty.<hash of those changes>", so that two different
# uncommitted states never share a code version (and a sweep never reuses the other's runs).
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE sha OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git status --porcelain
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT sha)
  set(sha "unknown")
elseif(dirty)
  execute_process(COMMAND git diff HEAD --binary
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE changes ERROR_QUIET)
  execute_process(COMMAND git ls-files --others --exclude-standard
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE untracked OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REPLACE "\n" ";" untracked "${untracked}")
  foreach(file IN LISTS untracked)
    if(EXISTS "${SOURCE_DIR}/${file}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/${file}")
      file(SHA256 "${SOURCE_DIR}/${file}" file_hash)
      string(APPEND changes "\n${file} ${file_hash}")
    endif()
  endforeach()
  string(SHA256 changes_hash "${changes}")
  string(SUBSTRING "${changes_hash}" 0 12 changes_hash)
  set(sha "${sha}-dirty.${changes_hash}")
endif()
set(content "#define INCSIM_GIT_SHA \"${sha}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE "${OUT}" "${content}")
endif()
