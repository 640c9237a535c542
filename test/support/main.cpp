// The doctest runner: every test/*.cpp registers its suites with this one main().
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
