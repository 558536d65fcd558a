// Discovery on TypeScript's own tree (`ts.createSourceFile`, which never throws and always recovers): the same
// rules as src/extension/discovery.ts (shared.mjs), walked over the syntax tree instead of tokens.
import ts from "typescript";
import {
  decodeEscapes,
  importsTable,
  MODIFIERS,
  ourCallee,
  PARAMETERISED,
  PROPERTY_CALLEES,
  ROLES,
} from "./shared.mjs";

const K = ts.SyntaxKind;

function scriptKind(fileName) {
  if (/\.tsx$/i.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.jsx$/i.test(fileName)) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/i.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

export function parseTypeScript(source, fileName) {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName));
}

/** The tests in `source`, as discovery.ts reports them. */
export function discoverTypeScript(source, fileName) {
  const sf = parseTypeScript(source, fileName);
  const start = (n) => n.getStart(sf);
  const bindings = [];
  for (const s of sf.statements) {
    if (
      s.kind === K.ImportDeclaration &&
      s.importClause &&
      !s.importClause.isTypeOnly &&
      ts.isStringLiteral(s.moduleSpecifier)
    ) {
      const specifier = s.moduleSpecifier.text;
      const c = s.importClause;
      if (c.name) bindings.push({ local: c.name.text, imported: "default", specifier });
      if (c.namedBindings?.kind === K.NamespaceImport)
        bindings.push({ local: c.namedBindings.name.text, imported: "*", specifier });
      else if (c.namedBindings)
        for (const e of c.namedBindings.elements)
          if (!e.isTypeOnly)
            bindings.push({ local: e.name.text, imported: (e.propertyName ?? e.name).text, specifier });
    }
    if (s.kind === K.VariableStatement) {
      for (const d of s.declarationList.declarations) {
        const init = d.initializer;
        if (
          !init ||
          !ts.isCallExpression(init) ||
          !ts.isIdentifier(init.expression) ||
          init.expression.text !== "require" ||
          !init.arguments[0] ||
          !ts.isStringLiteral(init.arguments[0])
        )
          continue;
        const specifier = init.arguments[0].text;
        if (ts.isIdentifier(d.name)) bindings.push({ local: d.name.text, imported: "*", specifier });
        else if (ts.isObjectBindingPattern(d.name))
          for (const e of d.name.elements)
            if (ts.isIdentifier(e.name))
              bindings.push({ local: e.name.text, imported: (e.propertyName ?? e.name).getText(sf), specifier });
      }
    }
  }
  const table = importsTable(bindings);
  const tests = [];

  const ours = (node) => {
    if (!ts.isCallExpression(node)) return undefined;
    const c = node.expression;
    if (ts.isIdentifier(c)) {
      const callee = ourCallee(table, c.text);
      return callee && { callee, offset: start(c) };
    }
    if (ts.isPropertyAccessExpression(c) && ts.isIdentifier(c.expression) && ts.isIdentifier(c.name)) {
      const callee = ourCallee(table, c.expression.text, c.name.text);
      return callee && { callee, offset: start(c.expression) };
    }
    return undefined;
  };

  const role = (node) => {
    if (!ts.isCallExpression(node) || node.arguments.length === 0) return undefined;
    let c = node.expression;
    let parameterised = false;
    if (ts.isCallExpression(c)) ((c = c.expression), (parameterised = true));
    else if (ts.isTaggedTemplateExpression(c)) ((c = c.tag), (parameterised = true));
    const modifiers = [];
    while (ts.isPropertyAccessExpression(c) && ts.isIdentifier(c.name)) {
      modifiers.unshift(c.name.text);
      c = c.expression;
    }
    if (!ts.isIdentifier(c) || !ROLES.has(c.text) || !modifiers.every((m) => MODIFIERS.has(m))) return undefined;
    if (parameterised !== (modifiers.length > 0 && PARAMETERISED.has(modifiers[modifiers.length - 1])))
      return undefined;
    if (c.text === "context" && node.arguments.length < 2) return undefined;
    return { role: ROLES.get(c.text), kind: c.text, start: start(c) };
  };

  const nameOf = (arg) => {
    if (ts.isStringLiteral(arg)) return arg.text;
    const s = start(arg);
    if (ts.isNoSubstitutionTemplateLiteral(arg)) return decodeEscapes(source.slice(s + 1, arg.end - 1));
    if (ts.isTemplateExpression(arg)) return source.slice(s + 1, arg.end - 1);
    return source.slice(s, arg.end).trim();
  };

  const bound = (name, node) => {
    for (let p = node.parent; p; p = p.parent) {
      const body = ts.isSourceFile(p) || ts.isBlock(p) ? p.statements : undefined;
      for (const s of body ?? []) {
        if (!ts.isVariableStatement(s)) continue;
        for (const d of s.declarationList.declarations) {
          if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
          const init = ts.isAwaitExpression(d.initializer) ? d.initializer.expression : d.initializer;
          const call = ours(init);
          return call && (call.callee === "property" || call.callee === "machine") ? call : undefined;
        }
      }
    }
    return undefined;
  };

  const findProperty = (call) => {
    for (const arg of call.arguments.slice(1)) {
      if (ts.isIdentifier(arg)) {
        const b = bound(arg.text, call);
        if (b) return b;
      }
      let found;
      const visit = (n) => {
        if (found) return;
        const c = ours(n);
        if (c && PROPERTY_CALLEES.has(c.callee)) return void (found = c);
        if (n !== arg && role(n)) return;
        ts.forEachChild(n, visit);
      };
      visit(arg);
      if (found) return found;
    }
    return undefined;
  };

  const walk = (node, suites) => {
    const r = role(node);
    let inner = suites;
    if (r) {
      const name = nameOf(node.arguments[0]);
      if (r.role === "suite") inner = [...suites, name];
      else {
        let outer = node;
        while (
          ts.isPropertyAccessExpression(outer.parent) &&
          outer.parent.expression === outer &&
          ts.isCallExpression(outer.parent.parent) &&
          outer.parent.parent.expression === outer.parent
        )
          outer = outer.parent.parent;
        const statement = ts.isExpressionStatement(outer.parent) ? outer.parent : outer;
        const property = findProperty(node);
        tests.push({
          path: [...suites, name],
          kind: r.kind,
          range: { start: r.start, end: node.end },
          insertAfter: { offset: statement.end },
          propertyCall: property,
          isProperty: property !== undefined,
        });
      }
    }
    ts.forEachChild(node, (c) => walk(c, inner));
  };
  walk(sf, []);
  return { tests: tests.sort((a, b) => a.range.start - b.range.start), threw: false };
}
