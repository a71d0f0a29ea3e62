/**
 * Every test runs with the unit nesting checks on (unit.ts): a service that starts a unit inside
 * its own caller's, without the caller's tx, fails its test with NestedUnitError instead of
 * waiting forever (SQLite) or committing apart (PostgreSQL).
 */
import { checkUnitNesting } from "./unit";

checkUnitNesting(true);
