# One `tropic` command-line check, run by ctest as `cmake -D... -P test/cli/cli_test.cmake`:
# ctest's PASS_REGULAR_EXPRESSION ignores the exit code, and the CLI's contract is both the code
# (0 ok, 1 failure, 2 usage) and the message.
#   TROPIC        path of the tropic executable
#   ARGS          its arguments, separated by '|'
#   EXPECT_RC     expected exit code
#   STDOUT_REGEX  optional: stdout must match
#   STDERR_REGEX  optional: stderr must match
#   INPUT_FILE / INPUT_TEXT   optional: write INPUT_TEXT ('\n' for newlines) to INPUT_FILE first
#   STDIN_FILE    optional: the command's standard input (for GRAPH '-')
#   GZIP_INPUT    optional: also compress INPUT_FILE to INPUT_FILE.gz (CMake's own gzip)
#   OUTPUT_FILE / OUTPUT_LINES / OUTPUT_REGEX  optional: the file the command wrote must have
#                 OUTPUT_LINES lines and match OUTPUT_REGEX
if(DEFINED INPUT_FILE)
  string(REPLACE "\\n" "\n" text "${INPUT_TEXT}")
  file(WRITE "${INPUT_FILE}" "${text}")
  if(GZIP_INPUT)
    get_filename_component(dir "${INPUT_FILE}" DIRECTORY)
    get_filename_component(name "${INPUT_FILE}" NAME)
    file(ARCHIVE_CREATE OUTPUT "${INPUT_FILE}.gz" PATHS "${INPUT_FILE}" FORMAT raw
         COMPRESSION GZip)
  endif()
endif()
set(stdin_args)
if(DEFINED STDIN_FILE)
  set(stdin_args INPUT_FILE "${STDIN_FILE}")
endif()
if(DEFINED OUTPUT_FILE)
  file(REMOVE "${OUTPUT_FILE}")
endif()
string(REPLACE "|" ";" argv "${ARGS}")
execute_process(COMMAND "${TROPIC}" ${argv} ${stdin_args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
list(JOIN argv " " shown)
message("$ tropic ${shown}\n--- stdout\n${out}--- stderr\n${err}--- exit code ${rc}")
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "expected exit code ${EXPECT_RC}, got ${rc}")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}'")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}'")
endif()
if(DEFINED OUTPUT_FILE)
  if(NOT EXISTS "${OUTPUT_FILE}")
    message(FATAL_ERROR "the command did not write ${OUTPUT_FILE}")
  endif()
  file(STRINGS "${OUTPUT_FILE}" lines)
  list(LENGTH lines count)
  if(DEFINED OUTPUT_LINES AND NOT count EQUAL OUTPUT_LINES)
    message(FATAL_ERROR "${OUTPUT_FILE} has ${count} lines, expected ${OUTPUT_LINES}")
  endif()
  file(READ "${OUTPUT_FILE}" content)
  if(DEFINED OUTPUT_REGEX AND NOT content MATCHES "${OUTPUT_REGEX}")
    message(FATAL_ERROR "${OUTPUT_FILE} does not match '${OUTPUT_REGEX}'")
  endif()
endif()
