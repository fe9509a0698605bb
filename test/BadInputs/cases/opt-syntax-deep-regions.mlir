func.func @f() {
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
"test.region"() ({
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
  return
}
