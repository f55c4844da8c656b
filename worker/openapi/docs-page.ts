// The API reference page, served by the worker at /api/docs with its script at /api/docs/app.js:
// no CDN and no inline script, so it works offline and under the app's CSP (script-src 'self';
// inline styles are allowed). The script reads /api/openapi.json and builds the page with the DOM
// API (no eval, no HTML strings): grouped by tag, each operation with its method, path, summary,
// parameters, request body and responses; the schemas named by the document at the end.

export const DOCS_PAGE = String.raw`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Legacy Vault API reference</title>
    <style>
      :root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #d0d0d0; --link: #0b5cad; --soft: #f4f6f8; }
      * { box-sizing: border-box; }
      body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
      a { color: var(--link); }
      a:focus-visible, summary:focus-visible, main:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
      code { font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
      .skip { position: absolute; left: -999px; top: 0; background: #fff; padding: 0.5em 1em; }
      .skip:focus { left: 0.5em; top: 0.5em; z-index: 1; }
      .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
      .layout { display: grid; grid-template-columns: minmax(12rem, 16rem) minmax(0, 1fr); gap: 2rem; max-width: 80rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
      nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; padding-top: 1rem; }
      .nav-title { font-weight: 700; margin: 0 0 0.5rem; }
      nav ul { list-style: none; margin: 0; padding: 0; }
      nav li { margin: 0.2rem 0; }
      h1 { font-size: 1.9rem; margin: 1rem 0 0.5rem; }
      h2 { font-size: 1.5rem; margin: 2.5rem 0 0.5rem; padding-bottom: 0.3rem; border-bottom: 2px solid var(--line); }
      h3 { font-size: 1.1rem; margin: 0 0 0.3rem; }
      h4 { font-size: 1rem; margin: 1rem 0 0.3rem; }
      .op { border: 1px solid var(--line); border-radius: 6px; padding: 0.8rem 1rem; margin: 1rem 0; }
      .op p { margin: 0.3rem 0; }
      .summary { font-weight: 600; }
      .auth, .limits, .opt { color: var(--muted); }
      .req { color: #8a1c1c; font-weight: 600; }
      .method { display: inline-block; min-width: 4.2em; text-align: center; color: #fff; border-radius: 4px; padding: 0 0.4em; font-size: 0.85em; }
      .method-get { background: #0b5cad; } .method-post { background: #1d6b30; } .method-put { background: #8a4b00; }
      .method-patch { background: #6b3fa0; } .method-delete { background: #b3261e; }
      .path { background: none; font-size: 1em; }
      details { margin-top: 0.5rem; }
      summary { cursor: pointer; color: var(--link); }
      table { border-collapse: collapse; width: 100%; }
      th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 0.3rem 0.5rem 0.3rem 0; }
      .props, .choices { margin: 0.2rem 0; padding-left: 1.3rem; }
      .responses dt { font-weight: 700; margin-top: 0.5rem; }
      .responses dt.ok { color: #1d6b30; } .responses dt.err { color: #8a1c1c; }
      .responses dd { margin-left: 1.5rem; }
      @media (max-width: 48rem) { .layout { grid-template-columns: 1fr; } nav { position: static; max-height: none; } }
    </style>
    <script src="/api/docs/app.js" defer></script>
  </head>
  <body>
    <a class="skip" href="#reference">Skip to the reference</a>
    <div class="layout">
      <nav id="toc" aria-label="API groups"></nav>
      <main id="reference" tabindex="-1">
        <h1>Legacy Vault API reference</h1>
        <p id="about"></p>
        <p>The document this page shows: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). <span id="version"></span></p>
        <p id="status" role="status">Loading the API description…</p>
        <noscript><p>This page needs JavaScript to show the document; read <a href="/api/openapi.json">the OpenAPI document</a> itself.</p></noscript>
      </main>
    </div>
  </body>
</html>
`

export const DOCS_SCRIPT = String.raw`;(function () {
  'use strict'
  var main = document.getElementById('reference')
  var status = document.getElementById('status')
  var SAFE = 9007199254740991

  function el(tag, attrs, children) {
    var node = document.createElement(tag)
    Object.keys(attrs || {}).forEach(function (name) {
      node.setAttribute(name, attrs[name])
    })
    ;(children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child)
    })
    return node
  }
  function code(text) {
    return el('code', {}, [String(text)])
  }
  function slug(text) {
    return String(text).replace(/[^A-Za-z0-9_-]+/g, '-')
  }
  function refName(ref) {
    return ref.split('/').pop()
  }
  function schemaLink(ref) {
    return el('a', { href: '#schema-' + slug(refName(ref)) }, [refName(ref)])
  }
  function literal(value) {
    return JSON.stringify(value)
  }
  // Descriptions are CommonMark; of it, only inline code (between backticks) is shown as such.
  var BACKTICK = String.fromCharCode(96)
  function prose(text) {
    return String(text || '').split(BACKTICK).map(function (part, i) {
      return i % 2 ? code(part) : part
    })
  }

  // --- Schemas -------------------------------------------------------------------------------------

  function typeOf(schema) {
    if (schema.$ref) return [schemaLink(schema.$ref)]
    if ('const' in schema) return ['exactly ', code(literal(schema.const))]
    if (schema.enum) return ['one of ', code(schema.enum.map(literal).join(', '))]
    var types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
    if (types.indexOf('array') >= 0 && schema.items) {
      return ['array of '].concat(typeOf(schema.items))
    }
    if (schema.type === 'string' && schema.format === 'binary') return ['file']
    if (types.length) return [types.join(' or ')]
    if (schema.oneOf || schema.anyOf) return ['one of the following']
    if (schema.allOf) return ['all of the following']
    if (schema.not && Object.keys(schema.not).length === 0) return ['never sent']
    return ['any value']
  }

  function limits(schema) {
    var parts = []
    function add(label, value) {
      if (value !== undefined && Math.abs(value) < SAFE) parts.push(label + ' ' + value)
    }
    add('min length', schema.minLength)
    add('max length', schema.maxLength)
    add('min', schema.minimum)
    add('max', schema.maximum)
    add('min items', schema.minItems)
    add('max items', schema.maxItems)
    if (schema.format && schema.format !== 'binary') parts.push('format ' + schema.format)
    else if (schema.pattern && schema.pattern.length <= 60) parts.push('pattern ' + schema.pattern)
    if ('default' in schema) parts.push('default ' + literal(schema.default))
    return parts.length ? el('span', { class: 'limits' }, [' (' + parts.join(', ') + ')']) : null
  }

  function schemaView(schema, depth) {
    if (!schema || depth > 8) return null
    var nested = null
    var items = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.indexOf('array') >= 0) ? schema.items : null
    var target = items && !items.$ref ? items : schema
    if (target.properties) {
      var required = target.required || []
      nested = el(
        'ul',
        { class: 'props' },
        Object.keys(target.properties).map(function (name) {
          var prop = target.properties[name]
          return el('li', {}, [
            code(name),
            required.indexOf(name) >= 0 ? el('span', { class: 'req' }, [' required']) : el('span', { class: 'opt' }, [' optional']),
            ': ',
          ].concat(typeOf(prop), [limits(prop), schemaView(prop, depth + 1)]))
        }),
      )
    }
    var choices = schema.oneOf || schema.anyOf || schema.allOf
    if (choices) {
      nested = el(
        'ol',
        { class: 'choices' },
        choices.map(function (choice) {
          return el('li', {}, typeOf(choice).concat([limits(choice), schemaView(choice, depth + 1)]))
        }),
      )
    }
    return nested
  }

  function schemaBlock(schema) {
    return el('div', { class: 'schema' }, [el('p', {}, typeOf(schema).concat([limits(schema)])), schemaView(schema, 0)])
  }

  // --- Operations ----------------------------------------------------------------------------------

  function parametersView(params) {
    if (!params || !params.length) return null
    return el('div', {}, [
      el('h4', {}, ['Parameters']),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, ['Name', 'In', 'Required', 'Value'].map(function (h) { return el('th', { scope: 'col' }, [h]) }))]),
        el(
          'tbody',
          {},
          params.map(function (p) {
            return el('tr', {}, [
              el('td', {}, [code(p.name)]),
              el('td', {}, [p.in]),
              el('td', {}, [p.required ? 'yes' : 'no']),
              el('td', {}, typeOf(p.schema || {}).concat([limits(p.schema || {})])),
            ])
          }),
        ),
      ]),
    ])
  }

  function contentView(content) {
    return Object.keys(content || {}).map(function (type) {
      var media = content[type]
      return el('div', { class: 'media' }, [el('p', {}, ['Content type ', code(type)]), media.schema ? schemaBlock(media.schema) : null])
    })
  }

  function bodyView(body) {
    if (!body) return null
    return el('div', {}, [el('h4', {}, ['Request body']), body.description ? el('p', {}, prose(body.description)) : null].concat(contentView(body.content)))
  }

  function responsesView(responses, doc) {
    var shared = (doc.components && doc.components.responses) || {}
    return el('div', {}, [
      el('h4', {}, ['Responses']),
      el(
        'dl',
        { class: 'responses' },
        Object.keys(responses).reduce(function (list, code_) {
          var answer = responses[code_]
          if (answer.$ref) answer = shared[refName(answer.$ref)] || {}
          list.push(el('dt', { class: Number(code_) < 400 ? 'ok' : 'err' }, [code_]))
          list.push(el('dd', {}, [el('p', {}, prose(answer.description))].concat(contentView(answer.content))))
          return list
        }, []),
      ),
    ])
  }

  function operationView(method, path, op, doc) {
    var id = 'op-' + slug(op.operationId || method + path)
    return el('article', { class: 'op', id: id }, [
      el('h3', {}, [el('span', { class: 'method method-' + method }, [method.toUpperCase()]), ' ', el('code', { class: 'path' }, [path])]),
      el('p', { class: 'summary' }, [op.summary || '']),
      op.description ? el('p', {}, prose(op.description)) : null,
      op.security && op.security.length
        ? el('p', { class: 'auth' }, ['Needs a session: ', code('Authorization: Bearer <token>'), ' or the session cookie.'])
        : el('p', { class: 'auth' }, ['No session needed.']),
      el('details', {}, [
        el('summary', {}, ['Parameters, body and responses', el('span', { class: 'visually-hidden' }, [' of ' + method.toUpperCase() + ' ' + path])]),
        parametersView(op.parameters),
        bodyView(op.requestBody),
        responsesView(op.responses || {}, doc),
      ]),
    ])
  }

  // --- The page ------------------------------------------------------------------------------------

  var METHODS = ['get', 'post', 'put', 'patch', 'delete']

  function render(doc) {
    var groups = {}
    var order = (doc.tags || []).map(function (t) { return t.name })
    Object.keys(doc.paths || {}).forEach(function (path) {
      METHODS.forEach(function (method) {
        var op = doc.paths[path][method]
        if (!op) return
        var tag = (op.tags && op.tags[0]) || 'other'
        if (order.indexOf(tag) < 0) order.push(tag)
        ;(groups[tag] = groups[tag] || []).push(operationView(method, path, op, doc))
      })
    })
    var described = {}
    ;(doc.tags || []).forEach(function (t) { described[t.name] = t.description })
    var nav = document.getElementById('toc')
    var links = el('ul', {}, [])
    order.forEach(function (tag) {
      if (!groups[tag]) return
      links.appendChild(el('li', {}, [el('a', { href: '#tag-' + slug(tag) }, [tag]), ' (' + groups[tag].length + ')']))
      main.appendChild(
        el('section', { 'aria-labelledby': 'tag-' + slug(tag) }, [el('h2', { id: 'tag-' + slug(tag) }, [tag]), described[tag] ? el('p', {}, prose(described[tag])) : null].concat(groups[tag])),
      )
    })
    var schemas = (doc.components && doc.components.schemas) || {}
    links.appendChild(el('li', {}, [el('a', { href: '#schemas' }, ['Schemas'])]))
    main.appendChild(
      el('section', { 'aria-labelledby': 'schemas' }, [el('h2', { id: 'schemas' }, ['Schemas'])].concat(
        Object.keys(schemas).map(function (name) {
          return el('article', { class: 'op' }, [el('h3', { id: 'schema-' + slug(name) }, [name]), schemaBlock(schemas[name])])
        }),
      )),
    )
    nav.appendChild(el('p', { class: 'nav-title' }, ['Groups']))
    nav.appendChild(links)
    if (doc.info) {
      document.getElementById('version').textContent = 'Version ' + doc.info.version + ', OpenAPI ' + doc.openapi + '.'
      prose(doc.info.description).forEach(function (part) {
        document.getElementById('about').appendChild(typeof part === 'string' ? document.createTextNode(part) : part)
      })
    }
    status.textContent = Object.keys(doc.paths || {}).length + ' paths loaded.'
    openTarget()
  }

  // A link to an operation opens its details.
  function openTarget() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)))
    if (!target) return
    var details = target.querySelector('details')
    if (details) details.open = true
    target.scrollIntoView()
  }
  window.addEventListener('hashchange', openTarget)

  fetch('/api/openapi.json', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
    .then(function (res) {
      if (!res.ok) throw new Error('the server answered ' + res.status)
      return res.json()
    })
    .then(render)
    .catch(function (error) {
      status.textContent = 'The API description could not be loaded (' + error.message + '). It is at /api/openapi.json.'
    })
})()
`
