/**
 * Names of the tables created by a projection's schema statements (`CREATE TABLE [IF NOT EXISTS] name`),
 * in statement order, as written (quoted names keep their quotes). Other statements are ignored.
 */
export function schemaTables(schema: readonly string[]): string[] {
  const createTable = /^\s*create\s+table\s+(?:if\s+not\s+exists\s+)?("(?:[^"]|"")+"|[\w.]+)/i;
  return schema.flatMap((statement) => {
    const match = createTable.exec(statement);
    return match ? [match[1]!] : [];
  });
}
