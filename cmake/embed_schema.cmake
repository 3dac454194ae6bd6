# Generates a C file holding the schema migrations as NUL-terminated strings.
# Usage: cmake -DOUT=file.c "-DIN=a.sql,b.sql" -P embed_schema.cmake
# The migration number is the NNN_ prefix of each file name; IN must list
# 001, 002, ... with no gap and in order, else the build fails: a database's
# user_version is the number of migrations applied, so a gap filled later
# would never be applied to a ledger already past it.
# -DNAME=array -DCOUNT=count name the symbols (default: the ledger's
# migrations, pl_schema_migrations and pl_schema_migration_count).
if(NOT DEFINED NAME)
  set(NAME pl_schema_migrations)
endif()
if(NOT DEFINED COUNT)
  set(COUNT pl_schema_migration_count)
endif()
set(body "/* generated from schema/migrations by cmake/embed_schema.cmake; do not edit */\n#include <stddef.h>\n\n")
set(list "const char *const ${NAME}[] = {\n")
string(REPLACE "," ";" IN "${IN}")
set(i 0)
foreach(f IN LISTS IN)
  get_filename_component(name ${f} NAME)
  string(SUBSTRING "${name}" 0 3 num)
  math(EXPR num "${num} + 0")
  math(EXPR want "${i} + 1")
  if(NOT num EQUAL want)
    message(FATAL_ERROR "migration ${name} is number ${num}; the next must be number ${want}")
  endif()
  math(EXPR i "${i} + 1")
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(APPEND body "static const char m${i}[] = {${hex}0x00};\n")
  string(APPEND list "\tm${i},\n")
endforeach()
string(APPEND list "};\nconst size_t ${COUNT} = ${i};\n")
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(WRITE ${OUT}.tmp "${body}\n${list}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
