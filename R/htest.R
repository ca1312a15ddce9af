# Builds the htest objects of the component tests from the list the C core
# returns (see ffi_result() in src/ffi.c).

new_htest <- function(res, method, data_name, alternative = NULL,
                      statistic_name = NULL, parameter_names = NULL,
                      estimate_names = NULL, null_value = NULL,
                      conf_level = NULL, extra = list()) {
  out <- list()
  if (!is.null(statistic_name)) {
    out$statistic <- stats::setNames(res$statistic, statistic_name)
  }
  if (!is.null(parameter_names)) {
    par <- c(res$df1, res$df2)[seq_along(parameter_names)]
    out$parameter <- stats::setNames(par, parameter_names)
  }
  out$p.value <- res$p_value
  if (!is.null(conf_level) && !is.na(res$conf_low)) {
    out$conf.int <- structure(c(res$conf_low, res$conf_high),
                              conf.level = conf_level)
  }
  if (!is.null(estimate_names)) {
    est <- c(res$estimate1, res$estimate2)[seq_along(estimate_names)]
    out$estimate <- stats::setNames(est, estimate_names)
  }
  if (!is.null(null_value)) out$null.value <- null_value
  if (!is.null(alternative)) out$alternative <- alternative
  out$method <- method
  out$data.name <- data_name
  out$exact <- isTRUE(res$exact)
  out[names(extra)] <- extra
  structure(out, class = c("speeduptest_htest", "htest"))
}
