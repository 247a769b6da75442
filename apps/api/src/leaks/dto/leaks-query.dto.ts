/**
 * `GET /api/decom/v1/leaks` takes no parameters: any is refused with 400 by the global pipe (as on the
 * other list routes), so a filter a client believes it applied is never silently ignored.
 */
export class LeaksQueryDto {}
