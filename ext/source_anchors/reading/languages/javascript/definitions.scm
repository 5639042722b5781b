; JavaScript (and JSX) definitions: @definition.KIND the node, @name its name (grammar.py).
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(class_body (method_definition name: (_) @name) @definition.method)
(field_definition property: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
(variable_declarator name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
; An object bound to a name is a scope for the methods written in it (const provider = { now() {…} }).
(variable_declarator name: (identifier) @name value: (object)) @definition.object
(object (method_definition name: (_) @name) @definition.method)
